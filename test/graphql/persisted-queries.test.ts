// Apollo's automatic persisted queries, as Strapi v4's Apollo Server 3 answers them (recorded
// from the reference Strapi 4.26.2): the hash alone, then the query with its hash, then the hash
// alone again, by POST, by GET and in a batch.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const apolloError = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });
const NOT_FOUND = apolloError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');

describe('GraphQL automatic persisted queries', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const post = (body: unknown) =>
    request(service.app)
      .post('/graphql')
      .set('Accept', 'application/json')
      .send(body as object);
  const get = (params: Record<string, string>) =>
    request(service.app).get('/graphql').set('Accept', 'application/json').query(params);

  it('asks for an unknown query, remembers it once sent with its hash, then runs it from the hash (POST and GET)', async () => {
    const query = '{ tags(sort: "id", pagination: { limit: 2 }) { data { id } } }';
    const hash = sha256(query);
    const answer = { data: { tags: { data: [{ id: '1' }, { id: '2' }] } } };
    const first = await post({ extensions: persisted(hash) });
    expect([first.status, first.body]).to.deep.equal([200, NOT_FOUND]);
    const viaGet = await get({ extensions: JSON.stringify(persisted(hash)) });
    expect([viaGet.status, viaGet.body]).to.deep.equal([200, NOT_FOUND]);
    const sent = await post({ query, extensions: persisted(hash) });
    expect([sent.status, sent.body]).to.deep.equal([200, answer]);
    const again = await post({ extensions: persisted(hash) });
    expect([again.status, again.body]).to.deep.equal([200, answer]);
    const cached = await get({ extensions: JSON.stringify(persisted(hash)) });
    expect([cached.status, cached.body]).to.deep.equal([200, answer]);
    const batch = await post([{ extensions: persisted(hash) }, { extensions: persisted(sha256('{ x }')) }]);
    expect([batch.status, batch.body]).to.deep.equal([200, [answer, NOT_FOUND]]);
  });

  it('refuses a hash that is not the query’s and an unknown version (400), and never remembers a query that fails validation', async () => {
    const query = '{ tags { data { id } } }';
    const mismatch = await post({ query, extensions: persisted(sha256('{ other }')) });
    expect([mismatch.status, mismatch.body]).to.deep.equal([
      400,
      apolloError('provided sha does not match query', 'INTERNAL_SERVER_ERROR'),
    ]);
    for (const persistedQuery of [{ version: 2, sha256Hash: sha256(query) }, { sha256Hash: sha256(query) }]) {
      const res = await post({ extensions: { persistedQuery } });
      expect([res.status, res.body]).to.deep.equal([
        400,
        apolloError('Unsupported persisted query version', 'INTERNAL_SERVER_ERROR'),
      ]);
    }
    const invalid = '{ nope }';
    const refused = await post({ query: invalid, extensions: persisted(sha256(invalid)) });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    expect((await post({ extensions: persisted(sha256(invalid)) })).body).to.deep.equal(NOT_FOUND);
  });

  it('runs a remembered mutation by POST only: a GET keeps refusing mutations', async () => {
    const mutation = 'mutation { deleteNote(id: 999999) { data { id } } }';
    const hash = sha256(mutation);
    const { accessKey } = await createApiToken(service.context, { name: 'apq', type: 'full-access' });
    const sent = await post({ query: mutation, extensions: persisted(hash) }).set(
      'Authorization',
      `Bearer ${accessKey}`,
    );
    expect(sent.body).to.deep.equal({ data: { deleteNote: { data: null } } });
    const viaGet = await get({ extensions: JSON.stringify(persisted(hash)) }).set(
      'Authorization',
      `Bearer ${accessKey}`,
    );
    expect(viaGet.status).to.equal(405);
  });

  it('answers PersistedQueryNotSupported when apolloServer.persistedQueries is false', async () => {
    const off = await createTestService({
      config: { plugins: { graphql: { enabled: true, config: { apolloServer: { persistedQueries: false } } } } },
    });
    try {
      const query = '{ __typename }';
      const res = await request(off.app)
        .post('/graphql')
        .send({ query, extensions: persisted(sha256(query)) });
      expect([res.status, res.body]).to.deep.equal([
        200,
        apolloError('PersistedQueryNotSupported', 'PERSISTED_QUERY_NOT_SUPPORTED'),
      ]);
      expect((await request(off.app).post('/graphql').send({ query })).body).to.deep.equal({
        data: { __typename: 'Query' },
      });
    } finally {
      await off.close();
    }
  });
});
