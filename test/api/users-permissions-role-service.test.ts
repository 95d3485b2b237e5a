// strapi.plugin('users-permissions').service('role') as projects and plugins use it in bootstrap
// (strapi-plugin-sitemap grants the public role its routes this way): find(), findOne(id) with the
// permissions tree, a change of that tree written back with updateRole(id, role), createRole and
// deleteRole; what they change is what the REST routes then allow at once.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'src/api/page/routes/report.js': `module.exports = { routes: [{ method: 'GET', path: '/role-report', handler: 'page.report', config: { auth: false } }] };`,
  'src/api/page/controllers/page.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::page.page', ({ strapi }) => ({
  async report() {
    const roles = strapi.plugin('users-permissions').service('role');
    const editors = (await roles.find()).find((role) => role.type === 'editors');
    const unknown = await roles.findOne(999).catch((error) => error.message);
    return { roles: (await roles.find()).map((role) => [role.type, role.nb_users]), editors: await roles.findOne(editors.id), unknown };
  },
}));`,
  'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const roles = strapi.plugin('users-permissions').service('role');
    const publicId = (await roles.find()).find((role) => role.type === 'public').id;
    const role = await roles.findOne(publicId);
    role.permissions['api::page'].controllers.page.find = { enabled: true };
    role.permissions['api::page'].controllers.page.findOne = { enabled: true };
    await roles.updateRole(role.id, role);
    await roles.createRole({ name: 'Editors', description: 'they edit', permissions: { 'api::page': { controllers: { page: { create: { enabled: true } } } } } });
    await roles.createRole({ name: 'Temporary' });
    const temporary = (await roles.find()).find((one) => one.type === 'temporary');
    await roles.deleteRole(temporary.id);
    // deleteRole(id, publicRoleID): the role's users move to the role given (Strapi's controller gives the public one)
    await roles.createRole({ name: 'Leaving' });
    const all = await roles.find();
    const leaving = all.find((one) => one.type === 'leaving');
    const editors = all.find((one) => one.type === 'editors');
    await strapi.db.query('plugin::users-permissions.user').create({ data: { username: 'leaver', email: 'leaver@example.com', provider: 'local', role: leaving.id } });
    await roles.deleteRole(leaving.id, editors.id);
  },
};`,
};

describe("strapi.plugin('users-permissions').service('role')", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it("grants the public role what bootstrap enabled in findOne's tree, through updateRole", async () => {
    await request(service.app).get('/api/pages').expect(200);
    await request(service.app).get('/api/pages/1').expect(404);
    const refused = await request(service.app)
      .post('/api/pages')
      .send({ data: { title: 'x' } })
      .expect(403);
    expect(refused.body.error.name).to.equal('ForbiddenError');
  });

  it('creates a role with its permissions, deletes others (users moving to the role given), and answers find/findOne as Strapi', async () => {
    const res = await request(service.app).get('/api/role-report').expect(200);
    expect(res.body.roles).to.deep.equal([
      ['authenticated', 0],
      ['public', 0],
      ['editors', 1],
    ]);
    expect(res.body.editors).to.include({ name: 'Editors', description: 'they edit', type: 'editors' });
    expect(res.body.editors.permissions['api::page'].controllers.page).to.deep.include({
      create: { enabled: true, policy: '' },
      find: { enabled: false, policy: '' },
    });
    expect(res.body.unknown).to.equal('Role not found');
  });
});
