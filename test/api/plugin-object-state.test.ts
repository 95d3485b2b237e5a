// `strapi.plugin(name)` is one object per plugin, as in Strapi: what a plugin's register puts on it
// (strapi-plugin-protected-populate keeps its route table as `strapi.plugin(...).protectedRoutes`)
// is there for its services and the app's code later, through `strapi.plugins[name]` too; a property
// nothing set reads undefined, as on Strapi's object (strapi-plugin-config-sync's register starts
// with `if (!strapi.plugin('config-sync').pluginTypes)`), while the lifecycle members are refused.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'src/api/page/routes/state.js': `module.exports = { routes: [
    { method: 'GET', path: '/plugin-state', handler: 'page.state', config: { auth: false } },
    { method: 'GET', path: '/plugin-lifecycle', handler: 'page.lifecycle', config: { auth: false } },
  ] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', ({ strapi }) => ({
  state() {
    return {
      rules: strapi.plugin('users-permissions').protectedRoutes,
      same: strapi.plugins['users-permissions'] === strapi.plugin('users-permissions'),
      types: strapi.plugin('users-permissions').pluginTypes,
      unset: strapi.plugin('i18n').neverSet === undefined,
    };
  },
  lifecycle() {
    try {
      strapi.plugin('i18n').bootstrap();
      return { refused: null };
    } catch (error) {
      return { refused: error.message };
    }
  },
}));`,
  'src/index.js': `module.exports = {
  register({ strapi }) {
    if (!strapi.plugin('users-permissions').pluginTypes) strapi.plugin('users-permissions').pluginTypes = [];
    strapi.plugin('users-permissions').pluginTypes.push('role');
    strapi.plugin('users-permissions').protectedRoutes = { '/api/pages': ['title'] };
  },
  bootstrap({ strapi }) {
    strapi.plugin('users-permissions').protectedRoutes['/api/pages/:id'] = ['id'];
  },
};`,
};

describe('strapi.plugin(name) keeps what code puts on it', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it('answers the same object every time, with the properties register and bootstrap set', async () => {
    const res = await request(service.app).get('/api/plugin-state').expect(200);
    expect(res.body).to.deep.equal({
      rules: { '/api/pages': ['title'], '/api/pages/:id': ['id'] },
      same: true,
      types: ['role'],
      unset: true,
    });
  });

  it("refuses the plugin's lifecycle functions, which the service runs", async () => {
    const res = await request(service.app).get('/api/plugin-lifecycle').expect(200);
    expect(res.body.refused).to.match(/^strapi\.plugin\('i18n'\)\.bootstrap is not supported by Content Service/);
  });
});
