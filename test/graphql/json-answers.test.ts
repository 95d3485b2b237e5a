import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * Strapi 4.26's GraphQL answers (Apollo Server 3) are `Content-Type: application/json`, no charset,
 * and the JSON text ends with a newline (clients such as graphql-request hand the raw body to the
 * caller in their errors). Checked with curl against the reference Strapi 4.26.2, one of each.
 */
describe('GraphQL JSON answers, byte for byte as Strapi', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  const post = (body: string) =>
    request(service.app).post('/graphql').set('Content-Type', 'application/json').send(body);

  const cases: Array<[string, string, number, string]> = [
    ['an answer', '{"query":"{ __typename }"}', 200, '{"data":{"__typename":"Query"}}\n'],
    ['a batch', '[{"query":"{ __typename }"}]', 200, '[{"data":{"__typename":"Query"}}]\n'],
    [
      'a validation error',
      '{"query":"{ zzz }"}',
      400,
      '{"errors":[{"message":"Cannot query field \\"zzz\\" on type \\"Query\\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}\n',
    ],
    [
      'a persisted query not yet known',
      '{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}',
      200,
      '{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}\n',
    ],
  ];
  for (const [name, body, status, text] of cases)
    it(name, async () => {
      const res = await post(body);
      expect(res.status).to.equal(status);
      expect(res.get('Content-Type')).to.equal('application/json');
      expect(res.text).to.equal(text);
      expect(res.get('Content-Length')).to.equal(String(Buffer.byteLength(text)));
    });

  it('a parse error ends with a newline too; a plain-text refusal stays text', async () => {
    const parse = await post('{"query":"{ __typename"}');
    expect(parse.status).to.equal(400);
    expect(parse.get('Content-Type')).to.equal('application/json');
    expect(parse.text.endsWith('"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}\n')).to.equal(true);
    const text = await post('{"query":"{ __typename }","variables":"{bad"}');
    expect(text.status).to.equal(400);
    expect(text.get('Content-Type')).to.equal('text/plain; charset=utf-8');
    expect(text.text).to.equal('Variables are invalid JSON.');
  });
});
