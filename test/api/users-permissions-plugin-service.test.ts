// strapi.plugin('users-permissions').service('users-permissions') for app code, as Strapi 4.26's:
// `initialize()`, which a copy of the plugin's bootstrap in an extension calls (the roles are there
// already: nothing to do), and `updateUserRole(user, role)`, which sets a user's role.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const FILES = {
  ...NOTE_HELLO_API,
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { ratelimit: { enabled: false } } } };`,
  'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  plugin.bootstrap = async ({ strapi }) => {
    await strapi.plugin('users-permissions').service('users-permissions').initialize();
  };
  return plugin;
};`,
  'src/api/note/routes/hello.js':
    "module.exports = { routes: [{ method: 'POST', path: '/promote/:id', handler: 'note.hello', config: { auth: false } }] };",
  'src/api/note/controllers/note.js': `module.exports = {
  async hello(ctx) {
    const roles = strapi.query('plugin::users-permissions.role');
    const editor = await roles.create({ data: { name: 'Editor', type: 'editor' } });
    await strapi.plugin('users-permissions').service('users-permissions').updateUserRole({ id: Number(ctx.params.id) }, editor.id);
    const user = await strapi.query('plugin::users-permissions.user').findOne({ where: { id: ctx.params.id }, populate: ['role'] });
    ctx.body = { role: user.role.type, roles: (await roles.findMany({ orderBy: { id: 'asc' } })).map((role) => role.type) };
  },
};`,
};

describe("the users-permissions plugin's users-permissions service from app code", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it('initialize() in a replaced bootstrap leaves the roles as they are; updateUserRole sets a role', async () => {
    const registered = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    const res = await request(service.app).post(`/api/promote/${registered.body.user.id}`).expect(200);
    expect(res.body).to.deep.equal({ role: 'editor', roles: ['authenticated', 'public', 'editor'] });
  });
});
