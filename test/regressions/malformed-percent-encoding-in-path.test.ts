// Regression: `/api/tags/%zz` answered 500 (the router's decodeURIComponent threw a URIError);
// Strapi answers 400 `failed to decode` (and `Malicious Path` for a NUL byte). Undecodable
// sequences in the query string are kept as text, by both.
import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: malformed percent-encoding in a path', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const failedToDecode = {
    data: null,
    error: { status: 400, name: 'BadRequestError', message: 'failed to decode', details: {} },
  };

  it("answers Strapi's 400 for an undecodable path, whatever the method or route", async () => {
    for (const [method, path] of [
      ['get', '/api/tags/%zz'],
      ['get', '/api/tags/%'],
      ['get', '/api/tags/%E0%A4%A'],
      ['put', '/api/tags/%zz'],
      ['delete', '/api/tags/%zz'],
      ['get', '/api/homepage%zz'],
      ['get', '/api/zz%zz'],
      ['post', '/graphql%zz'],
      ['get', '/graphql/%zz'],
    ] as const) {
      const res = await request(service.app)[method](path);
      expect(res.status, `${method} ${path}`).to.equal(400);
      expect(res.body, `${method} ${path}`).to.deep.equal(failedToDecode);
    }
  });

  it("answers Strapi's 400 `Malicious Path` for a NUL byte in a path", async () => {
    const res = await request(service.app).get('/api/tags/1%00');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 400, name: 'BadRequestError', message: 'Malicious Path', details: {} },
    });
  });

  it('keeps undecodable sequences of a query string as text (REST and GraphQL over GET)', async () => {
    const rest = await request(service.app).get('/api/tags?filters[name][$eq]=%zz&fields[0]=name');
    expect(rest.status).to.equal(200);
    expect(rest.body.data).to.deep.equal([]);
    const query = encodeURIComponent('{ tags(filters: { name: { eq: "').concat(
      '%zz',
      encodeURIComponent('" } }) { data { id } } }'),
    );
    const graphql = await request(service.app).get(`/graphql?query=${query}`).set('Accept', 'application/json');
    expect(graphql.status).to.equal(200);
    expect(JSON.parse(graphql.text)).to.deep.equal({ data: { tags: { data: [] } } });
  });
});
