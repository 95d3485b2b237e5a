// `fields` and `sort` keys inside a populate object where they name no attribute
// (`populate: { fields: ['*'], category: { fields: ['*'] } }`, which projects' route middlewares
// set): Strapi 4.26 checks them against that level's schema (`Invalid parameter <name>`) and
// populates nothing for them (answers recorded from the reference Strapi 4.26.2).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const collection = (singularName: string, pluralName: string, attributes: Record<string, unknown>) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes,
  });

describe('fields and sort keys of a populate object', () => {
  let service: TestService;
  let token: string;
  const get = (path: string) => request(service.app).get(path).set(bearer(token));
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-populate-options-'));
    await writeFiles(appDir, {
      'config/permissions.json': '{}',
      'src/api/category/content-types/category/schema.json': collection('category', 'categories', {
        name: { type: 'string' },
      }),
      'src/api/article/content-types/article/schema.json': collection('article', 'articles', {
        title: { type: 'string' },
        category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
      }),
      'src/api/article/middlewares/article-info.js': `module.exports = () => async (ctx, next) => {
        ctx.query.populate = { fields: ['*'], category: { fields: ['*'] } };
        await next();
      };`,
      'src/api/article/routes/article.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article', {
        config: { find: { middlewares: ['api::article.article-info'] } },
      });`,
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'options', type: 'full-access' })).accessKey;
    const category = await request(service.app)
      .post('/api/categories')
      .set(bearer(token))
      .send({ data: { name: 'Tech' } })
      .expect(200);
    await request(service.app)
      .post('/api/articles')
      .set(bearer(token))
      .send({ data: { title: 'First', category: category.body.data.id } })
      .expect(200);
  });
  after(() => service.close());

  it("populates as a project's middleware asks with fields: ['*'] at the top and inside", async () => {
    const res = await get('/api/articles');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data[0].attributes.category.data.attributes).to.include({ name: 'Tech' });
  });

  it('accepts them as query parameters when they name fields of that level, and ignores them', async () => {
    for (const query of [
      'populate[fields][0]=*&populate[category]=true',
      'populate[sort]=title:desc&populate[category]=true',
    ]) {
      const res = await get(`/api/articles/1?${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.data.attributes.category.data.attributes.name).to.equal('Tech');
    }
    const nested = await get('/api/articles/1?populate[category][populate][fields][0]=name');
    expect(nested.status, JSON.stringify(nested.body)).to.equal(200);
  });

  it('answers a name that is not a field of that level with Strapi’s 400', async () => {
    for (const query of [
      'populate[fields]=nope',
      'populate[sort]=nope',
      'populate[category][populate][fields][0]=nope',
    ])
      expect((await get(`/api/articles/1?${query}`)).body.error).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid parameter nope',
        details: {},
      });
  });
});
