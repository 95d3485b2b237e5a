import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { at } from './helpers.js';

/** `plugins.graphql`: enabled, endpoint, defaultLimit/maxLimit/amountLimit, depthLimit, shadowCRUD, playground in production. */
describe('GraphQL configuration', () => {
  let service: TestService;
  const savedSecrets = { JWT_SECRET: process.env.JWT_SECRET, API_TOKEN_SALT: process.env.API_TOKEN_SALT };
  before(async () => {
    // production would keep generated secrets under the app directory: give them instead
    process.env.JWT_SECRET = 'graphql-config-test-jwt';
    process.env.API_TOKEN_SALT = 'graphql-config-test-salt';
    service = await createTestService({
      config: {
        env: 'production',
        plugins: {
          graphql: {
            enabled: true,
            config: { endpoint: '/gql', defaultLimit: 3, maxLimit: 50, amountLimit: 4, depthLimit: 2 },
          },
        },
      },
    });
    await seedPublication(service.context);
  });
  after(async () => {
    await service.close();
    for (const [key, value] of Object.entries(savedSecrets)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  const post = (query: string) => request(service.app).post('/gql').set('Accept', 'application/json').send({ query });

  it('serves the configured endpoint only', async () => {
    expect((await post('{ tags { data { id } } }')).status).to.equal(200);
    // nothing serves /graphql: only the public files' GET route has the path (405 to a POST, as Strapi)
    expect((await request(service.app).post('/graphql').send({ query: '{ __typename }' })).status).to.equal(405);
    expect((await request(service.app).get('/graphql').set('Accept', 'application/json')).status).to.equal(404);
  });

  it('uses defaultLimit when no page size is asked, and caps sizes at min(maxLimit, amountLimit)', async () => {
    const res = await post(
      '{ tags { data { id } } capped: tags(pagination: { pageSize: 40 }) { data { id } meta { pagination { pageSize } } } }',
    );
    expect(at(res.body, 'data.tags.data')).to.have.length(3);
    expect(at(res.body, 'data.capped.data')).to.have.length(4);
    expect(at(res.body, 'data.capped.meta.pagination.pageSize')).to.equal(4);
  });

  it('combines limit -1 with maxLimit (Strapi: -1 is maxLimit) and amountLimit (caps the entries)', async () => {
    // maxLimit 50 ≥ 12 tags, then amountLimit 4 caps the list: pages of 4
    const res = await post(
      '{ tags(pagination: { limit: -1 }) { data { id } meta { pagination { total page pageSize pageCount } } } }',
    );
    expect(at(res.body, 'data.tags.data')).to.have.length(4);
    expect(at(res.body, 'data.tags.meta.pagination')).to.deep.equal({ total: 12, page: 1, pageSize: 4, pageCount: 3 });
  });

  it('applies the configured depthLimit', async () => {
    expect(
      (await post('{ tags { data { attributes { articles { data { attributes { title } } } } } } }')).status,
    ).to.equal(200);
    const deep = await post(
      '{ tags { data { attributes { articles { data { attributes { author { data { attributes { name } } } } } } } } } }',
    );
    expect(deep.status).to.equal(400);
    expect(deep.body.errors[0].message).to.equal("'' exceeds maximum operation depth of 2");
  });

  it('does not serve the playground in production unless playgroundAlways', async () => {
    const page = await request(service.app).get('/gql').set('Accept', 'text/html');
    expect(page.text).not.to.contain('GraphQL Playground');
  });
});

describe('GraphQL configuration: disabled plugin and shadowCRUD off', () => {
  it('serves no /graphql when the plugin is disabled', async () => {
    const service = await createTestService({ config: { plugins: { graphql: { enabled: false, config: {} } } } });
    try {
      // only the public files' GET route has the path: 405 to a POST, 404 to a GET, as Strapi
      expect((await request(service.app).post('/graphql').send({ query: '{ __typename }' })).status).to.equal(405);
      expect((await request(service.app).get('/graphql').set('Accept', 'application/json')).status).to.equal(404);
    } finally {
      await service.close();
    }
  });

  it('has no generated queries or mutations without shadowCRUD', async () => {
    const service = await createTestService({
      config: { plugins: { graphql: { enabled: true, config: { shadowCRUD: false } } } },
    });
    try {
      const res = await request(service.app)
        .post('/graphql')
        .set('Accept', 'application/json')
        .send({ query: '{ __type(name: "Query") { fields { name } } }' });
      expect((at(res.body, 'data.__type.fields') as Array<{ name: string }>).map((f) => f.name)).to.deep.equal(['me']);
    } finally {
      await service.close();
    }
  });
});
