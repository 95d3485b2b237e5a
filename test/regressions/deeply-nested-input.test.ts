// Regression: input nested thousands of levels deep answered 500 (stack overflows: printing a
// deep array in a validation message, Mongoose cloning a deep JSON attribute, GraphQL variable
// coercion and the resolvers' value copies) or a 400 whose message was the RangeError's. Now:
// a JSON body nested over 100 levels is a 400 at the door, a JSON attribute over 64 levels is a
// validation error, GraphQL filters over 32 levels too, and a document too deep to parse is a
// GRAPHQL_PARSE_FAILED.
import { expect } from 'chai';
import request from 'supertest';
import { gql } from '../graphql/helpers.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { rawClient } from '../helpers/server.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';

describe('regression: deeply nested input', () => {
  let service: TestService;
  let auth: string;
  before(async () => {
    service = await createTestService();
    auth = `Bearer ${(await createApiToken(service.context, { name: 'nested', type: 'full-access' })).accessKey}`;
  });
  after(() => service.close());

  const deepArray = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const post = (path: string, body: string) =>
    request(service.app).post(path).set('Authorization', auth).set('Content-Type', 'application/json').send(body);

  it('refuses a JSON body nested over 100 levels with a 400, on every route, and stores nothing', async () => {
    for (const [path, body] of [
      ['/api/tags', `{"data":{"name":"x","slug":${deepArray(20_000)}}}`],
      ['/api/articles', `{"data":{"title":"x","metadata":${deepObject(20_000)}}}`],
      ['/graphql', `{"query":"{ __typename }","variables":${deepObject(20_000)}}`],
      ['/api/auth/local', deepArray(101)],
    ]) {
      const res = await post(path, body);
      expect(res.status, path).to.equal(400);
      expect(res.body.error, path).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid request body: nested over 100 levels deep',
        details: {},
      });
    }
    const client = await rawClient();
    try {
      const db = client.db(service.context.connection.name);
      expect(await db.collection('tags').countDocuments()).to.equal(0);
      expect(await db.collection('articles').countDocuments()).to.equal(0);
    } finally {
      await client.close();
    }
  });

  it('answers a validation error for a JSON attribute nested over 64 levels, and for a deep array where text is expected', async () => {
    const json = await post('/api/articles', `{"data":{"title":"x","metadata":${deepObject(65)}}}`);
    expect(json.status).to.equal(400);
    expect(json.body.error.message).to.equal('metadata must not nest objects and arrays over 64 levels deep');
    expect((await post('/api/articles', `{"data":{"title":"x","metadata":${deepObject(64)}}}`)).status).to.equal(200);
    const text = await post('/api/tags', `{"data":{"name":"x","slug":${deepArray(90)}}}`);
    expect(text.status).to.equal(400);
    expect(text.body.error.message).to.match(/^slug must be a `string` type/);
  });

  it('answers GraphQL documents and filters nested too deeply with GraphQL errors', async () => {
    const literal = await gql(service, `{ tags(filters: { id: { in: ${deepArray(5_000)} } }) { data { id } } }`);
    expect(literal.status).to.equal(400);
    expect(literal.body.errors).to.deep.equal([
      { message: 'Syntax Error: the document is nested too deeply.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } },
    ]);
    const filters = await gql(
      service,
      `{ tags(filters: ${'{ not: '.repeat(40)}{ id: { eq: 1 } }${' }'.repeat(40)}) { data { id } } }`,
    );
    expect(filters.status).to.equal(200);
    expect(filters.body.errors?.[0]?.message).to.equal('Invalid filters: nested over 32 levels deep');
    expect(filters.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
    const json = await gql(
      service,
      `mutation { createArticle(data: { title: "x", metadata: ${'{ a: '.repeat(1_000)}1${' }'.repeat(1_000)} }) { data { id } } }`,
      undefined,
      auth.slice('Bearer '.length),
    );
    expect(json.body.errors?.[0]?.message).to.equal('metadata must not nest objects and arrays over 64 levels deep');
  });
});
