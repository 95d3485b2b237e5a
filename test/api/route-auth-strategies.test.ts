// A route's `config.auth.strategies` (and `auth.scope`), as Strapi 4.26's auth service honours them:
// only the listed content-API strategies are tried, in their order: a name is users-permissions,
// api-token or a project's registered strategy (an unknown name is skipped), an object is a
// strategy of its own; the first that authenticates decides, `{ error }` is a 401 with it, none is a
// 401 "Missing or invalid credentials". The route's scope (its handler's action unless `auth.scope`
// names others) is then verified as on every route.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

// a device presents `x-device-key: dev-<name>`; `dev-lost` is refused with the strategy's message
const INDEX = `module.exports = {
  register({ strapi }) {
    strapi.container.get('auth').register('content-api', {
      name: 'device-key',
      authenticate(ctx) {
        const key = ctx.request.header['x-device-key'];
        if (key === 'dev-lost') return { error: 'Device reported lost' };
        if (typeof key !== 'string' || !key.startsWith('dev-')) return { authenticated: false };
        return { authenticated: true, credentials: { device: key.slice(4) } };
      },
    });
  },
};`;

const ROUTES = `const inline = {
  name: 'door-code',
  authenticate(ctx) {
    return ctx.query.code === 'open' ? { authenticated: true, credentials: { door: 'front' } } : { error: 'Wrong code' };
  },
};
module.exports = { routes: [
  { method: 'GET', path: '/device/ping', handler: 'note.ping', config: { auth: { strategies: ['device-key'] } } },
  { method: 'GET', path: '/tokens-only', handler: 'note.ping', config: { auth: { strategies: ['api-token'] } } },
  { method: 'GET', path: '/users-only', handler: 'note.ping', config: { auth: { strategies: ['users-permissions'] } } },
  { method: 'GET', path: '/either', handler: 'note.ping', config: { auth: { strategies: ['no-such-strategy', 'device-key', 'users-permissions'] } } },
  { method: 'GET', path: '/door', handler: 'note.ping', config: { auth: { strategies: [inline] } } },
  { method: 'GET', path: '/scoped', handler: 'note.ping', config: { auth: { scope: ['api::note.note.find'] } } },
] };`;

const CONTROLLER = `module.exports = require('@strapi/strapi').factories.createCoreController('api::note.note', () => ({
  ping(ctx) {
    return { strategy: ctx.state.auth.strategy.name, credentials: ctx.state.auth.credentials ? Object.keys(ctx.state.auth.credentials).sort()[0] : null };
  },
}));`;

const FILES = {
  'config/permissions.json': json({
    public: ['api::note.note.findOne'],
    authenticated: ['api::note.note.ping', 'api::note.note.find'],
  }),
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { ratelimit: { enabled: false } } } };`,
  'src/api/note/content-types/note/schema.json': json({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  }),
  'src/api/note/routes/01-custom.js': ROUTES,
  'src/api/note/routes/note.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note', {
  config: { find: { auth: { strategies: ['device-key'] } } },
});`,
  'src/api/note/controllers/note.js': CONTROLLER,
  'src/index.js': INDEX,
};

describe("a route's config.auth.strategies and auth.scope", () => {
  let service: TestService;
  let jwt: string;
  let token: string;
  const api = () => request(service.app);
  const device = (key: string) => ({ 'x-device-key': key });
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    jwt = res.body.jwt as string;
    token = (await createApiToken(service.context, { name: 'full', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  it('tries only the project strategy it names: a device passes, a user, a token and the public do not', async () => {
    const ok = await api().get('/api/device/ping').set(device('dev-kiosk')).expect(200);
    expect(ok.body).to.deep.equal({ strategy: 'device-key', credentials: 'device' });
    for (const headers of [bearer(jwt), bearer(token), {}]) {
      const refused = await api().get('/api/device/ping').set(headers).expect(401);
      expect(refused.body.error).to.include({ name: 'UnauthorizedError', message: 'Missing or invalid credentials' });
    }
    const lost = await api().get('/api/device/ping').set(device('dev-lost')).expect(401);
    expect(lost.body.error.message).to.equal('Device reported lost');
  });

  it('names the built-in strategies: api-token takes tokens only, users-permissions users (and the public role) only', async () => {
    expect((await api().get('/api/tokens-only').set(bearer(token)).expect(200)).body.strategy).to.equal('api-token');
    await api().get('/api/tokens-only').set(bearer(jwt)).expect(401);
    await api().get('/api/tokens-only').set(device('dev-kiosk')).expect(401);
    const user = await api().get('/api/users-only').set(bearer(jwt)).expect(200);
    expect(user.body).to.deep.equal({ strategy: 'users-permissions', credentials: 'blocked' });
    await api().get('/api/users-only').set(bearer(token)).expect(401);
    // the public role has permissions, so users-permissions authenticates a caller without a bearer
    // (a device key is not looked at) as the public; the route's scope refuses it
    await api().get('/api/users-only').expect(403);
    await api().get('/api/users-only').set(device('dev-kiosk')).expect(403);
  });

  it('skips a name no strategy has and takes the first listed one that authenticates', async () => {
    expect((await api().get('/api/either').set(device('dev-kiosk')).expect(200)).body.strategy).to.equal('device-key');
    expect((await api().get('/api/either').set(bearer(jwt)).expect(200)).body.strategy).to.equal('users-permissions');
    await api().get('/api/either').set(bearer(token)).expect(401);
  });

  it('runs a strategy object given in the route itself', async () => {
    expect((await api().get('/api/door?code=open').expect(200)).body).to.deep.equal({
      strategy: 'door-code',
      credentials: 'door',
    });
    const refused = await api().get('/api/door?code=shut').set(bearer(jwt)).expect(401);
    expect(refused.body.error.message).to.equal('Wrong code');
  });

  it('verifies the scope auth.scope names instead of the handler action', async () => {
    await api().get('/api/scoped').set(bearer(jwt)).expect(200);
    // the public role may findOne, not find
    await api().get('/api/scoped').expect(403);
  });

  it('serves a core route with strategies (createCoreRouter config) through them', async () => {
    await api().get('/api/notes').set(device('dev-kiosk')).expect(200);
    await api().get('/api/notes').set(bearer(jwt)).expect(401);
    // the other core routes try every strategy, as without config
    await api().get('/api/notes/1').set(bearer(token)).expect(404);
  });
});

describe('a route whose auth.strategies lists what is no strategy', () => {
  it('stops start-up naming the route', async () => {
    const message = await startUpError({
      'src/api/note/routes/custom.js': `module.exports = { routes: [
  { method: 'GET', path: '/odd', handler: () => 'x', config: { auth: { strategies: [42] } } },
] };`,
    });
    expect(message).to.contain('route GET /odd');
    expect(message).to.contain('config.auth.strategies must be a list of strategy names or objects');
  });
});
