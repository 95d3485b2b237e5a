import { expect } from 'chai';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { gql } from './helpers.js';

/**
 * A bad `sort` or `filters` argument of a repeatable component field fails that field only, once
 * per entry resolved, as Strapi 4.26 resolves each component field on its own (answers recorded
 * from the reference Strapi on the same seed).
 */
describe('GraphQL: a component field’s bad arguments', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const refusal = {
    message: 'Invalid parameter a',
    extensions: {
      error: { name: 'ValidationError', message: 'Invalid parameter a', details: {} },
      code: 'BAD_USER_INPUT',
    },
  };

  it('null there, the entry kept', async () => {
    const res = await gql(service, '{ article(id: 1) { data { id attributes { title links(sort: ["a"]) { id } } } } }');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      errors: [refusal],
      data: { article: { data: { id: '1', attributes: { title: 'Getting Started with Strapi', links: null } } } },
    });
  });

  it('no error where no entry is found to resolve it', async () => {
    const res = await gql(service, '{ article(id: "abc") { data { id attributes { links(sort: ["a"]) { id } } } } }');
    expect(res.body).to.deep.equal({ data: { article: { data: null } } });
  });

  it('one error per entry of a list', async () => {
    const res = await gql(
      service,
      '{ articles(pagination: { pageSize: 2 }) { data { id attributes { links(sort: ["a"]) { id } } } } }',
    );
    expect(res.body.errors).to.deep.equal([refusal, refusal]);
    expect(res.body.data).to.deep.equal({
      articles: {
        data: [
          { id: '1', attributes: { links: null } },
          { id: '2', attributes: { links: null } },
        ],
      },
    });
  });
});
