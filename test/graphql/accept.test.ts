import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * The Accept headers GraphQL clients send: Apollo Client 4's
 * `application/graphql-response+json,application/json;q=0.9`, graphql-request 7's
 * `application/graphql-response+json, application/json`. Strapi 4.26 (Apollo Server 3) answers
 * `application/json` to all of them, with the same statuses, and to an Accept it cannot honour too.
 */
describe('GraphQL answers JSON whatever the client accepts', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  const post = (accept: string, query: string) =>
    request(service.app)
      .post('/graphql')
      .set('Accept', accept)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ operationName: 'Categories', variables: {}, query }));

  const ACCEPTS = [
    'application/graphql-response+json,application/json;q=0.9',
    'application/graphql-response+json, application/json',
    'application/graphql-response+json',
    'text/html;q=0.5',
  ];

  it('an answer with data: 200, application/json', async () => {
    for (const accept of ACCEPTS) {
      const res = await post(accept, 'query Categories { categories { meta { pagination { page } } } }');
      expect(res.status, accept).to.equal(200);
      expect(res.get('Content-Type'), accept).to.match(/^application\/json\b/);
      expect(res.body.data.categories.meta, accept).to.deep.equal({ pagination: { page: 1 } });
    }
  });

  it('a query that does not validate: 400, application/json, GRAPHQL_VALIDATION_FAILED', async () => {
    for (const accept of ACCEPTS) {
      const res = await post(accept, 'query Categories { categories { data { nope } } }');
      expect(res.status, accept).to.equal(400);
      expect(res.get('Content-Type'), accept).to.match(/^application\/json\b/);
      expect(res.body.errors[0].extensions, accept).to.deep.equal({ code: 'GRAPHQL_VALIDATION_FAILED' });
    }
  });

  it('a GET (Apollo useGETForQueries) with the same Accept: 200, application/json', async () => {
    const res = await request(service.app)
      .get('/graphql?query=%7B%20categories%20%7B%20data%20%7B%20id%20%7D%20%7D%20%7D')
      .set('Accept', ACCEPTS[0]!);
    expect(res.status).to.equal(200);
    expect(res.get('Content-Type')).to.match(/^application\/json\b/);
  });
});
