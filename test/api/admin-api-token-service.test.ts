// strapi.service('admin::api-token') as projects and plugins call it: a bootstrap creating a token
// for its front-end (the access key answered once), `hash(key)` finding it through
// `strapi.query('admin::api-token')` (strapi-plugin-io authenticates sockets so), `list`,
// `getByName`, `exists`, `revoke`; and `strapi.contentAPI.permissions.engine.generateAbility`.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'src/api/page/routes/tokens.js': `module.exports = { routes: [
    { method: 'GET', path: '/token-report', handler: 'page.report', config: { auth: false } },
    { method: 'POST', path: '/token-revoke', handler: 'page.revoke', config: { auth: false } },
  ] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', ({ strapi }) => ({
  async report() {
    const tokens = strapi.service('admin::api-token');
    const { accessKey } = await strapi.store({ type: 'app', name: 'front' }).get({ key: 'token' });
    const found = await strapi.query('admin::api-token').findOne({ where: { accessKey: tokens.hash(accessKey) }, select: ['id', 'name', 'type'] });
    const ability = await strapi.contentAPI.permissions.engine.generateAbility([{ action: 'api::page.page.find' }]);
    return {
      accessKey,
      found,
      names: (await tokens.list()).map((token) => token.name),
      byName: (await tokens.getByName('front-end'))?.type,
      exists: await tokens.exists({ name: 'front-end' }),
      missing: await tokens.exists({ name: 'nope' }),
      can: [ability.can('api::page.page.find'), ability.can('api::page.page.create')],
    };
  },
  async revoke() {
    const tokens = strapi.service('admin::api-token');
    const token = await tokens.getByName('front-end');
    return { revoked: (await tokens.revoke(token.id))?.name };
  },
}));`,
  'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const tokens = strapi.service('admin::api-token');
    if (await tokens.exists({ name: 'front-end' })) return;
    const token = await tokens.create({ name: 'front-end', description: 'for the site', type: 'read-only', lifespan: null });
    await strapi.store({ type: 'app', name: 'front' }).set({ key: 'token', value: { accessKey: token.accessKey } });
  },
};`,
};

describe("strapi.service('admin::api-token') and strapi.contentAPI", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it('creates a token in bootstrap that reads the API, and finds it by the hash of its key', async () => {
    const report = await request(service.app).get('/api/token-report').expect(200);
    expect(report.body.accessKey).to.match(/^[0-9a-f]{256}$/);
    expect(report.body.found).to.include({ name: 'front-end', type: 'read-only' });
    expect(report.body).to.deep.include({
      names: ['front-end'],
      byName: 'read-only',
      exists: true,
      missing: false,
      can: [true, false],
    });
    const auth = { Authorization: `Bearer ${String(report.body.accessKey)}` };
    await request(service.app).get('/api/pages').set(auth).expect(200);
    await request(service.app)
      .post('/api/pages')
      .set(auth)
      .send({ data: { title: 'x' } })
      .expect(403);
  });

  it('revokes it: the key no longer authenticates', async () => {
    const { accessKey } = (await request(service.app).get('/api/token-report').expect(200)).body as {
      accessKey: string;
    };
    const revoked = await request(service.app).post('/api/token-revoke').expect(200);
    expect(revoked.body).to.deep.equal({ revoked: 'front-end' });
    await request(service.app).get('/api/pages').set('Authorization', `Bearer ${accessKey}`).expect(401);
  });
});
