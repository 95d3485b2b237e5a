// What app code writes to the credentials' content-types through `strapi.db.query` moves the
// credentials epoch too (src/write/lifecycle-hooks.ts): a permission of the public role deleted so
// on one instance is refused by another instance within one poll, and one created so is granted.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'config/permissions.json': JSON.stringify({ public: ['api::page.page.find'] }),
  'src/api/page/routes/grants.js': `module.exports = { routes: [
    { method: 'POST', path: '/public-find/:on', handler: 'page.grant', config: { auth: false } },
  ] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', ({ strapi }) => ({
  async grant(ctx) {
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    const permissions = strapi.db.query('plugin::users-permissions.permission');
    if (ctx.params.on === 'on') await permissions.create({ data: { action: 'api::page.page.find', role: role.id } });
    else await permissions.delete({ where: { role: role.id, action: 'api::page.page.find' } });
    return { ok: true };
  },
}));`,
};

describe('credential writes of app code on two instances', function () {
  this.timeout(60_000);
  const services: TestService[] = [];
  before(async () => {
    const appDir = await writeTempProject(FILES);
    const uri = freshDatabaseUri();
    for (let i = 0; i < 2; i++) services.push(await createTestService({ appDir }, uri));
  });
  after(async () => {
    await services[1]?.stop();
    await services[0]?.close();
  });

  /** Asks instance 1 until it answers `status`; fails past 1.5 s after its last fresh read at `since` (an entry serves 2 s at most). */
  const untilAnswers = async (status: number, since: number) => {
    for (;;) {
      const answered = (await request(services[1]!.app).get('/api/pages')).status;
      if (answered === status) return;
      expect(Date.now() - since, `still ${answered}`).to.be.below(1500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const freshRead = async (status: number) => {
    const at = Date.now();
    expect((await request(services[1]!.app).get('/api/pages')).status).to.equal(status);
    return at;
  };

  it('a public permission deleted through strapi.db.query on one instance is refused by the other within one poll, and granted back so', async () => {
    for (let round = 0; round < 2; round++) {
      let since = await freshRead(200);
      expect((await request(services[0]!.app).post('/api/public-find/off')).status).to.equal(200);
      expect((await request(services[0]!.app).get('/api/pages')).status).to.equal(403);
      await untilAnswers(403, since);
      since = await freshRead(403);
      expect((await request(services[0]!.app).post('/api/public-find/on')).status).to.equal(200);
      await untilAnswers(200, since);
    }
  });
});
