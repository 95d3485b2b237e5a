import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * GraphQL over GET as clients send it (Apollo's `useGETForQueries`, graphql-request's
 * `method: 'GET'`): the answers Strapi 4.26 (Apollo Server 3) gives, checked with curl against the
 * reference Strapi 4.26.2.
 */
describe('GraphQL GET requests answered as Strapi', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  it('a mutation by GET: 405, Allow: POST, Apollo JSON error', async () => {
    for (const url of [
      '/graphql?query=mutation%20%7B%20deleteNote(id%3A%201)%20%7B%20data%20%7B%20id%20%7D%20%7D%20%7D',
      '/graphql?query=query%20A%20%7B%20__typename%20%7D%20mutation%20B%20%7B%20__typename%20%7D&operationName=B',
    ]) {
      const res = await request(service.app).get(url);
      expect(res.status, url).to.equal(405);
      expect(res.get('Allow')).to.equal('POST');
      expect(res.get('Content-Type')).to.equal('application/json');
      expect(res.text).to.equal(
        '{"errors":[{"message":"GET supports only query operation","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}\n',
      );
    }
    const query = await request(service.app).get(
      '/graphql?query=query%20A%20%7B%20__typename%20%7D%20mutation%20B%20%7B%20__typename%20%7D&operationName=A',
    );
    expect([query.status, query.text]).to.deep.equal([200, '{"data":{"__typename":"Query"}}\n']);
  });

  it('parameters without a query: the JSON 400; no parameters at all: the plain-text one', async () => {
    for (const url of ['/graphql?variables=%7B%7D', '/graphql?operationName=Q', '/graphql?query=']) {
      const res = await request(service.app).get(url);
      expect(res.status, url).to.equal(400);
      expect(res.get('Content-Type'), url).to.equal('application/json');
      expect(res.body, url).to.deep.equal({
        errors: [
          {
            message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      });
    }
    const bare = await request(service.app).get('/graphql').set('Accept', 'application/json');
    expect([bare.status, bare.text]).to.deep.equal([400, 'GET query missing.']);
  });

  it('a query given twice or in brackets is no string: the plain-text 400, nothing runs', async () => {
    const query = encodeURIComponent('{ __typename }');
    for (const url of [`/graphql?query=${query}&query=x`, `/graphql?query[a]=${query}`]) {
      const res = await request(service.app).get(url);
      expect([res.status, res.get('Content-Type'), res.text], url).to.deep.equal([
        400,
        'text/plain; charset=utf-8',
        'GraphQL queries must be strings.',
      ]);
    }
  });

  it("another method than GET and POST: Apollo's plain-text 405 with Allow: GET, POST", async () => {
    for (const method of ['put', 'delete', 'patch'] as const) {
      const res = await request(service.app)[method]('/graphql').send({ query: '{ __typename }' });
      expect([res.status, res.get('Allow'), res.get('Content-Type'), res.text], method).to.deep.equal([
        405,
        'GET, POST',
        'text/plain; charset=utf-8',
        'Apollo Server supports only GET/POST requests.',
      ]);
    }
  });

  it("an OPTIONS that is no CORS preflight: Apollo's empty 204", async () => {
    const res = await request(service.app).options('/graphql');
    expect([res.status, res.text, res.get('Allow')]).to.deep.equal([204, '', undefined]);
  });

  it("the endpoint's path is case-sensitive: /GRAPHQL is the REST 404", async () => {
    for (const res of [
      await request(service.app).post('/GRAPHQL').send({ query: '{ __typename }' }),
      await request(service.app).get('/GraphQL?query=%7B__typename%7D'),
    ])
      expect([res.status, res.body]).to.deep.equal([
        404,
        { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } },
      ]);
    const slash = await request(service.app).post('/graphql/').send({ query: '{ __typename }' });
    expect(slash.body).to.deep.equal({ data: { __typename: 'Query' } });
  });
});
