// A Strapi v4 project's `src/extensions/users-permissions/strapi-server.ts` and register hook
// changing the plugin as Strapi lets them: controller actions replaced, wrapped and added, routes
// pushed, removed and given middlewares, the user service factory wrapped; the plugin's routes
// are then served as the app left them, with the plugin's permissions.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { bearer, login } from './users-permissions/helpers.js';

const EXTENSION = `
export default (plugin) => {
  plugin.controllers.user.me = async (ctx) => {
    if (!ctx.state.user) return ctx.unauthorized('log in first');
    ctx.body = { memberId: ctx.state.user.id, name: ctx.state.user.username };
  };
  plugin.controllers.user.profile = async (ctx) => {
    const user = await strapi.plugin('users-permissions').service('user').fetch(ctx.params.id);
    return { profile: user ? user.username : null, greeting: strapi.plugin('users-permissions').service('user').hello() };
  };
  plugin.controllers.user.open = async (ctx) => {
    const payload = await strapi.plugin('users-permissions').service('jwt').getToken(ctx);
    return { open: true, tokenId: payload ? payload.id : null };
  };
  const register = plugin.controllers.auth.register;
  plugin.controllers.auth.register = async (ctx) => {
    ctx.request.body.username = String(ctx.request.body.username).toLowerCase();
    await register(ctx);
    ctx.body.welcome = true;
  };
  const users = plugin.services.user;
  plugin.services.user = (params) => ({ ...users(params), hello: () => 'hi' });
  const routes = plugin.routes['content-api'].routes;
  plugin.routes['content-api'].routes = routes.filter((route) => route.path !== '/auth/forgot-password');
  plugin.routes['content-api'].routes.push(
    { method: 'GET', path: '/profiles/:id', handler: 'user.profile', config: { prefix: '' } },
    { method: 'GET', path: '/open', handler: 'user.open', config: { auth: false } },
  );
  return plugin;
};
`;

const EMAIL_EXTENSION = `module.exports = (plugin) => {
  const send = plugin.controllers.email.send;
  plugin.controllers.email.send = async (ctx) => {
    ctx.request.body.to = ctx.request.body.to || 'fallback@example.com';
    await send(ctx);
    ctx.body = { ...ctx.body, to: ctx.request.body.to };
  };
  return plugin;
};
`;

const INDEX = `module.exports = {
  register({ strapi }) {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    const find = routes.find((route) => route.handler === 'user.find');
    find.config.middlewares = [...(find.config.middlewares || []), 'global::marked'];
    strapi.controller('plugin::users-permissions.user').count = (ctx) => ctx.forbidden('no counting');
  },
};
`;

const MARKED = `module.exports = () => async (ctx, next) => {
  await next();
  ctx.set('X-Marked', 'yes');
};
`;

describe("a Strapi v4 project's users-permissions extension (src/extensions/users-permissions/strapi-server)", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({
      appDir: await writeTempApp({
        config: {
          permissions: {
            public: [
              'plugin::users-permissions.auth.register',
              'plugin::users-permissions.auth.callback',
              'plugin::users-permissions.auth.forgotPassword',
            ],
            authenticated: [
              'plugin::users-permissions.user.me',
              'plugin::users-permissions.user.find',
              'plugin::users-permissions.user.count',
            ],
          },
          plugins: { 'users-permissions': { config: { ratelimit: { enabled: false } } } },
        },
        files: {
          'src/extensions/users-permissions/strapi-server.ts': EXTENSION,
          'src/extensions/email/strapi-server.js': EMAIL_EXTENSION,
          'src/index.js': INDEX,
          'src/middlewares/marked.js': MARKED,
        },
      }),
    });
  });
  after(() => service.close());

  it("runs the app's wrapper around the plugin's own register action, which answers as before", async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'Ann', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    expect(res.body.jwt).to.be.a('string');
    expect(res.body.user).to.include({ username: 'ann', email: 'ann@example.com' });
    expect(res.body.user).to.not.have.property('password');
    expect(res.body.welcome).to.equal(true);
    // the plugin's own checks still run inside it
    const taken = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ANN', email: 'other@example.com', password: 'Password123!' })
      .expect(400);
    expect(taken.body.error.message).to.equal('Email or Username are already taken');
  });

  it("answers /users/me with the app's replacement action, with ctx.state.user from the JWT", async () => {
    const jwt = await login(service.app, 'ann', 'Password123!');
    const res = await api().get('/api/users/me').set(bearer(jwt)).expect(200);
    expect(res.body).to.deep.equal({ memberId: res.body.memberId, name: 'ann' });
    await api().get('/api/users/me').expect(403);
  });

  it('serves a pushed route with its permission plugin::users-permissions.user.profile, listed for roles to grant', async () => {
    const jwt = await login(service.app, 'ann', 'Password123!');
    const { body: me } = await api().get('/api/users/me').set(bearer(jwt)).expect(200);
    await api()
      .get(`/api/profiles/${String(me.memberId)}`)
      .set(bearer(jwt))
      .expect(403);
    const { accessKey: adminToken } = await createApiToken(service.context, { name: 'admin', type: 'full-access' });
    const list = await api().get('/api/users-permissions/permissions').set(bearer(adminToken)).expect(200);
    expect(list.body.permissions['plugin::users-permissions'].controllers.user).to.have.property('profile');
    const authenticated = (
      await api().get('/api/users-permissions/roles').set(bearer(adminToken)).expect(200)
    ).body.roles.find((role: { type: string }) => role.type === 'authenticated');
    await api()
      .put(`/api/users-permissions/roles/${String(authenticated.id)}`)
      .set(bearer(adminToken))
      .send({
        permissions: {
          'plugin::users-permissions': {
            controllers: {
              user: {
                profile: { enabled: true },
                me: { enabled: true },
                find: { enabled: true },
                count: { enabled: true },
              },
            },
          },
        },
      })
      .expect(200);
    const res = await api()
      .get(`/api/profiles/${String(me.memberId)}`)
      .set(bearer(jwt))
      .expect(200);
    expect(res.body).to.deep.equal({ profile: 'ann', greeting: 'hi' });
  });

  it('serves a pushed route with auth: false under the plugin prefix, and no longer the removed one', async () => {
    expect((await api().get('/api/users-permissions/open').expect(200)).body).to.deep.equal({
      open: true,
      tokenId: null,
    });
    // the jwt service's getToken reads the request's bearer token
    const jwt = await login(service.app, 'ann', 'Password123!');
    const { body: me } = await api().get('/api/users/me').set(bearer(jwt)).expect(200);
    const withToken = await api().get('/api/users-permissions/open').set(bearer(jwt)).expect(200);
    expect(withToken.body).to.deep.equal({ open: true, tokenId: me.memberId });
    // removed: only the public files' GET route has the path now (405 with Allow: HEAD, GET, as Strapi)
    const removed = await api().post('/api/auth/forgot-password').send({ email: 'ann@example.com' }).expect(405);
    expect(removed.headers.allow).to.equal('HEAD, GET');
  });

  it("runs a wrapper around the e-mail plugin's send action, which still sends (POST /api/email)", async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'mailer', type: 'full-access' });
    const res = await api().post('/api/email').set(bearer(accessKey)).send({ subject: 'Hi', text: 'Hey' }).expect(200);
    expect(res.body).to.deep.equal({ to: 'fallback@example.com' });
    await api().post('/api/email').send({ subject: 'Hi', text: 'Hey' }).expect(403);
  });

  it("applies the register hook's changes: a middleware added to a route, an action replaced through strapi.controller", async () => {
    const jwt = await login(service.app, 'ann', 'Password123!');
    const list = await api().get('/api/users').set(bearer(jwt)).expect(200);
    expect(list.headers['x-marked']).to.equal('yes');
    expect(list.body.map((user: { username: string }) => user.username)).to.deep.equal(['ann']);
    const count = await api().get('/api/users/count').set(bearer(jwt)).expect(403);
    expect(count.body.error.message).to.equal('no counting');
  });
});

// met in kogouniversity/mvp-strapi-cms: `plugin.controllers.userProfile = factories.createCoreController('plugin::users-permissions.user', ...)`
const CORE_FACTORY_EXTENSION = `import { factories } from '@strapi/strapi';

export default (plugin) => {
  plugin.controllers.userProfile = factories.createCoreController('plugin::users-permissions.user', ({ strapi }) => ({
    async summary(ctx) {
      const directory = strapi.plugin('users-permissions').service('directory');
      const { results, pagination } = await directory.find({ fields: ['username'], sort: 'username:desc' });
      const sanitized = await this.sanitizeOutput(results, ctx);
      return { ...this.transformResponse(sanitized, { pagination }), total: await directory.total() };
    },
  }));
  plugin.services.directory = factories.createCoreService('plugin::users-permissions.user', ({ strapi }) => ({
    total: () => strapi.entityService.count('plugin::users-permissions.user'),
  }));
  plugin.routes['content-api'].routes.push({
    method: 'GET',
    path: '/users-summary',
    handler: 'userProfile.summary',
    config: { auth: false, prefix: '' },
  });
  return plugin;
};
`;

describe('core factories for a plugin content-type in an extension (createCoreController/Service of plugin::users-permissions.user)', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({
      appDir: await writeTempApp({
        config: {
          permissions: { public: ['plugin::users-permissions.auth.register'] },
          plugins: { 'users-permissions': { config: { ratelimit: { enabled: false } } } },
        },
        files: { 'src/extensions/users-permissions/strapi-server.ts': CORE_FACTORY_EXTENSION },
      }),
    });
    for (const username of ['ann', 'bob'])
      await request(service.app)
        .post('/api/auth/local/register')
        .send({ username, email: `${username}@example.com`, password: 'Password123!' })
        .expect(200);
  });
  after(() => service.close());

  it("runs the app's action over the core controller's helpers, and the core service's find", async () => {
    const res = await request(service.app).get('/api/users-summary').expect(200);
    expect(res.body).to.deep.equal({
      data: [
        { id: 2, attributes: { username: 'bob' } },
        { id: 1, attributes: { username: 'ann' } },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
      total: 2,
    });
  });

  it('lists the action in the permission catalogue, as a plugin controller of the app', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'admin', type: 'full-access' });
    const list = await request(service.app)
      .get('/api/users-permissions/permissions')
      .set(bearer(accessKey))
      .expect(200);
    expect(list.body.permissions['plugin::users-permissions'].controllers.userProfile).to.have.property('summary');
  });
});
