// A project's own content-API authentication strategy (`strapi.container.get('auth').register(
// 'content-api', strategy)` in its register hook, as Firebase, Auth0 or Clerk sign-ins do), asked as
// Strapi 4.26's auth service asks it: after users-permissions and API tokens have not recognised the
// bearer value, in the order registered; `{ error }` is a 401 with that message; without `verify`
// the caller may call every content-API route, with `verify` what the `ability` it answered allows.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer, login } from './users-permissions/helpers.js';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' }, author: { type: 'string' } },
};

// `partner-<name>`: a partner (no verify: every route); `reader-<name>`: a reader whose ability
// allows finding notes and whoami only; `revoked-<name>`: refused with the strategy's own message. Every call
// is counted, so a test can tell whether the strategy was asked.
const INDEX = `const calls = require('./calls.js');
module.exports = {
  register({ strapi }) {
    const auth = strapi.container.get('auth');
    auth.register('content-api', {
      name: 'partner-key',
      async authenticate(ctx) {
        calls.asked += 1;
        const header = ctx.request.header.authorization || '';
        const [, key = ''] = header.split(' ');
        if (key.startsWith('revoked-')) return { error: 'Partner key revoked' };
        if (!key.startsWith('partner-')) return { authenticated: false };
        const partner = { id: 'p-' + key.slice(8), name: key.slice(8) };
        ctx.state.user = partner;
        return { authenticated: true, credentials: partner };
      },
    });
    auth.register('content-api', {
      name: 'reader-key',
      authenticate(ctx) {
        const key = (ctx.get('authorization') || '').replace('Bearer ', '');
        if (!key.startsWith('reader-')) return undefined;
        return {
          authenticated: true,
          credentials: { reader: key.slice(7) },
          ability: { can: (action) => ['api::note.note.find', 'api::note.note.whoami'].includes(action) },
        };
      },
      verify(auth, config) {
        const scopes = [].concat(config.scope || []);
        if (!scopes.every((scope) => auth.ability.can(scope))) throw new Error('not allowed');
      },
    });
  },
};`;

const FILES = {
  'config/permissions.json': JSON.stringify({ authenticated: ['api::note.note.whoami'] }),
  'src/api/note/content-types/note/schema.json': JSON.stringify(NOTE),
  'src/api/note/routes/note.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note');",
  'src/api/note/routes/whoami.js': `module.exports = { routes: [
    { method: 'GET', path: '/whoami', handler: 'note.whoami' },
    { method: 'GET', path: '/strategy-calls', handler: 'note.calls', config: { auth: false } },
  ] };`,
  'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', () => ({
  whoami(ctx) {
    return { user: ctx.state.user === undefined ? 'none' : ctx.state.user, strategy: ctx.state.auth.strategy.name, credentials: ctx.state.auth.credentials };
  },
  calls() {
    return { asked: require('../../../calls.js').asked };
  },
}));`,
  'src/index.js': INDEX,
  'src/calls.js': 'module.exports = { asked: 0 };',
};

describe("a project's own content-API auth strategies", () => {
  let service: TestService;
  const api = () => request(service.app);
  const asked = async () => (await api().get('/api/strategy-calls').expect(200)).body.asked as number;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-auth-strategies-'));
    await writeFiles(appDir, FILES);
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('authenticates a bearer value users-permissions and API tokens do not know: core and custom routes', async () => {
    const created = await api()
      .post('/api/notes')
      .set(bearer('partner-acme'))
      .send({ data: { text: 'from a partner' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const list = await api().get('/api/notes').set(bearer('partner-acme'));
    expect(list.status).to.equal(200);
    expect(list.body.data.map((n: { attributes: { text: string } }) => n.attributes.text)).to.deep.equal([
      'from a partner',
    ]);
    const me = await api().get('/api/whoami').set(bearer('partner-acme'));
    expect(me.status, JSON.stringify(me.body)).to.equal(200);
    expect(me.body).to.deep.equal({
      user: { id: 'p-acme', name: 'acme' },
      strategy: 'partner-key',
      credentials: { id: 'p-acme', name: 'acme' },
    });
  });

  it('reaches GraphQL too', async () => {
    const res = await api()
      .post('/graphql')
      .set(bearer('partner-acme'))
      .send({ query: '{ notes { data { attributes { text } } } }' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.errors).to.equal(undefined);
    expect(res.body.data.notes.data).to.have.length(1);
  });

  it("answers a strategy's error as a 401 with its message; a value no strategy knows stays a 401", async () => {
    const revoked = await api().get('/api/notes').set(bearer('revoked-acme'));
    expect(revoked.status).to.equal(401);
    expect(revoked.body.error).to.include({ name: 'UnauthorizedError', message: 'Partner key revoked' });
    for (const unknown of ['nobody-knows', 'aaa.bbb.ccc']) {
      const res = await api().get('/api/notes').set(bearer(unknown));
      expect(res.status, unknown).to.equal(401);
      expect(res.body.error.message).to.equal('Missing or invalid credentials');
    }
  });

  it("with verify, allows what the strategy's ability allows and nothing else", async () => {
    expect((await api().get('/api/notes').set(bearer('reader-zoe'))).status).to.equal(200);
    const write = await api()
      .post('/api/notes')
      .set(bearer('reader-zoe'))
      .send({ data: { text: 'no' } });
    expect(write.status).to.equal(403);
    const me = await api().get('/api/whoami').set(bearer('reader-zoe'));
    // Strapi's auth service sets no ctx.state.user for a project's strategy
    expect(me.body).to.deep.equal({ user: 'none', strategy: 'reader-key', credentials: { reader: 'zoe' } });
  });

  it("leaves a users-permissions user's JWT to users-permissions: the project's strategies are not asked", async () => {
    const registered = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123!' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const jwt = await login(service.app, 'ada', 'Password123!');
    const before = await asked();
    const me = await api().get('/api/whoami').set(bearer(jwt));
    expect(me.status, JSON.stringify(me.body)).to.equal(200);
    expect(me.body.strategy).to.equal('users-permissions');
    expect(me.body.user.username).to.equal('ada');
    // a caller without credentials is the public role (which has permissions of its own), not asked either
    expect((await api().get('/api/notes')).status).to.equal(403);
    expect(await asked()).to.equal(before);
  });
});
