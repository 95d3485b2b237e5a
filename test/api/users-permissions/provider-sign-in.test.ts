// Sign-in through OAuth providers, as Strapi 4.26's users-permissions runs it: the grant settings
// in the core store (built-in providers, the project's own from providers-registry, config/plugins
// providers over them), `/connect/<provider>` to the provider and back (code exchanged, redirect to
// the front end with the access token), and `/auth/<provider>/callback?access_token=` answering
// `{ jwt, user }` (user found by e-mail and provider, or created with the default role). The
// providers are fakes on 127.0.0.1; GitHub's hard-coded API is routed to one.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import qs from 'qs';
import request from 'supertest';
import { createTestService, type TestService } from '../../helpers/server.js';
import { startFakeOAuthProvider, type FakeOAuthProvider } from '../../helpers/fake-oauth-provider.js';
import { interceptHosts } from '../../helpers/outbound-interceptor.js';
import { writeFiles } from '../../helpers/temp-app.js';

const FRONT = 'http://front.test/connect/acme/redirect';

const index = (origin: string) => `module.exports = {
  register({ strapi }) {
    strapi.plugin('users-permissions').service('providers-registry').add('acme', {
      enabled: true,
      icon: 'acme',
      grantConfig: {
        key: 'acme-key',
        secret: 'acme-secret',
        callback: '${FRONT}',
        scope: ['email', 'profile'],
        authorize_url: '${origin}/authorize',
        access_url: '${origin}/token',
        oauth: 2,
      },
      async authCallback({ accessToken }) {
        const res = await fetch('${origin}/acme/me', { headers: { authorization: 'Bearer ' + accessToken } });
        if (!res.ok) throw new Error(res.status + ' ' + res.statusText);
        const body = await res.json();
        return { username: body.name, email: body.mail };
      },
    });
  },
  // a project without Strapi's admin turns a built-in provider on through strapi.store
  async bootstrap({ strapi }) {
    const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
    const grant = await store.get({ key: 'grant' });
    const discord = { ...grant.discord, enabled: true, key: 'dc-key', callback: 'http://front.test/dc' };
    await store.set({ key: 'grant', value: { ...grant, discord } });
  },
};
`;

const PLUGINS = `module.exports = {
  'users-permissions': {
    config: {
      // the connect route is rate-limited (5 a window by default); this suite starts many flows
      ratelimit: { max: 50 },
      providers: { github: { enabled: true, key: 'gh-key', secret: 'gh-secret', callback: 'http://front.test/gh' } },
    },
  },
};
`;

const PROFILES = {
  '/acme/me': {
    'tok-new': { name: 'ada', mail: 'Ada@Acme.test' },
    'tok-short': { name: 'al', mail: 'al@acme.test' },
    'tok-taken': { name: 'bea', mail: 'bea@local.test' },
    'tok-closed': { name: 'cy', mail: 'cy@acme.test' },
    'tok-nomail': { name: 'dee' },
  },
  '/user': { 'gh-tok': { login: 'octo', email: null } },
  '/user/emails': {
    'gh-tok': [
      { email: 'other@github.test', primary: false },
      { email: 'Octo@GitHub.test', primary: true },
    ],
  },
};

function applicationError(res: request.Response, message: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body).to.deep.equal({
    data: null,
    error: { status: 400, name: 'ApplicationError', message, details: {} },
  });
}

describe('users-permissions provider sign-in (OAuth)', () => {
  let service: TestService;
  let fake: FakeOAuthProvider;
  const api = () => request(service.app);
  const db = () => service.context.connection;
  const grant = async () =>
    (await db().collection('strapi_core_store_settings').findOne({ key: 'plugin_users-permissions_grant' }))
      ?.value as Record<string, Record<string, unknown>>;
  const setGrant = (path: string, value: unknown) =>
    db()
      .collection('strapi_core_store_settings')
      .updateOne({ key: 'plugin_users-permissions_grant' }, { $set: { [`value.${path}`]: value } });
  const setAdvanced = (values: Record<string, unknown>) =>
    service.context.connection.collection('strapi_core_store_settings').updateOne(
      { key: 'plugin_users-permissions_advanced', environment: null, tag: null },
      {
        $set: {
          value: {
            unique_email: true,
            allow_register: true,
            email_confirmation: false,
            email_reset_password: null,
            email_confirmation_redirection: null,
            default_role: 'authenticated',
            ...values,
          },
        },
      },
      { upsert: true },
    );

  before(async () => {
    fake = await startFakeOAuthProvider(PROFILES);
    const appDir = await mkdtemp(join(tmpdir(), 'cs-oauth-'));
    await writeFiles(appDir, {
      'src/api/note/content-types/note/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'notes',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        attributes: { text: { type: 'string' } },
      }),
      'config/server.js': "module.exports = { url: 'http://cms.test' };",
      'config/plugins.js': PLUGINS,
      'src/index.js': index(fake.origin),
    });
    service = await createTestService({ appDir });
  });
  after(async () => {
    await service.close();
    await fake.close();
  });

  it("keeps the providers' settings in the core store: Strapi's built-ins, the project's, the config's over them", async () => {
    const settings = await grant();
    expect(Object.keys(settings)).to.include.members(['email', 'github', 'google', 'auth0', 'keycloak', 'acme']);
    expect(settings.email).to.deep.equal({ icon: 'envelope', enabled: true });
    expect(settings.google).to.deep.equal({
      icon: 'google',
      enabled: false,
      key: '',
      secret: '',
      callbackUrl: 'http://cms.test/api/auth/google/callback',
      scope: ['email'],
    });
    expect(settings.github).to.include({
      enabled: true,
      key: 'gh-key',
      secret: 'gh-secret',
      callback: 'http://front.test/gh',
    });
    expect(settings.acme).to.include({ enabled: true, key: 'acme-key', icon: 'acme', callback: FRONT });
  });

  describe('GET /api/connect/:provider', () => {
    it("redirects to the provider's authorization page with the client id, redirect_uri, scope and a state", async () => {
      const res = await api().get('/api/connect/acme');
      expect(res.status, JSON.stringify(res.body)).to.equal(302);
      const location = new URL(res.headers.location ?? '');
      expect(`${location.origin}${location.pathname}`).to.equal(`${fake.origin}/authorize`);
      const query = Object.fromEntries(location.searchParams);
      expect(query).to.include({
        client_id: 'acme-key',
        response_type: 'code',
        redirect_uri: 'http://cms.test/api/connect/acme/callback',
        scope: 'email,profile',
      });
      expect(query.state).to.match(/^[0-9a-f]{40}$/);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).to.match(/^up_grant=[^;]+; Path=\/api\/connect; HttpOnly; SameSite=Lax; Max-Age=600$/);
    });

    it('exchanges the code on the way back and redirects to the front end with the access token', async () => {
      const start = await api().get('/api/connect/acme');
      const state = new URL(start.headers.location ?? '').searchParams.get('state');
      const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
      const res = await api().get(`/api/connect/acme/callback?code=good&state=${state}`).set('Cookie', cookie);
      expect(res.status).to.equal(302);
      const location = res.headers.location ?? '';
      expect(location.startsWith(`${FRONT}?`)).to.equal(true);
      expect(qs.parse(location.slice(FRONT.length + 1))).to.deep.equal({
        access_token: 'tok-new',
        raw: { access_token: 'tok-new', token_type: 'bearer', scope: 'email' },
      });
      const exchange = fake.calls.filter((call) => call.path === '/token').at(-1);
      expect(Object.fromEntries(new URLSearchParams(exchange?.body))).to.deep.equal({
        grant_type: 'authorization_code',
        code: 'good',
        client_id: 'acme-key',
        client_secret: 'acme-secret',
        redirect_uri: 'http://cms.test/api/connect/acme/callback',
      });
      // the flow's cookie is spent
      expect(String(res.headers['set-cookie'])).to.match(/^up_grant=; .*Max-Age=0/);
    });

    it("redirects grant's errors to the front end: a state that differs, no flow started, a code the provider refuses", async () => {
      const start = await api().get('/api/connect/acme');
      const state = new URL(start.headers.location ?? '').searchParams.get('state');
      const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
      const errorOf = (res: request.Response) => qs.parse((res.headers.location ?? '').split('?')[1] ?? '').error;
      const mismatch = await api().get('/api/connect/acme/callback?code=good&state=other').set('Cookie', cookie);
      expect(errorOf(mismatch)).to.equal('Grant: OAuth2 state mismatch');
      const forged = await api().get(`/api/connect/acme/callback?code=good&state=${state}`).set('Cookie', `${cookie}x`);
      expect(errorOf(forged)).to.equal('Grant: missing session or misconfigured provider');
      const refused = await api().get(`/api/connect/acme/callback?code=bad&state=${state}`).set('Cookie', cookie);
      expect(errorOf(refused)).to.deep.equal({ error: 'bad_verification_code' });
      expect(refused.headers.location?.startsWith(`${FRONT}?`)).to.equal(true);
    });

    it('takes a callback of the same origin and path from the query, and refuses another (400, nothing set)', async () => {
      const custom = `${FRONT}?next=%2Fhome`;
      const ok = await api().get('/api/connect/acme').query({ callback: custom });
      expect(ok.status).to.equal(302);
      const state = new URL(ok.headers.location ?? '').searchParams.get('state');
      const cookie = String(ok.headers['set-cookie']).split(';')[0] ?? '';
      const back = await api().get(`/api/connect/acme/callback?code=good&state=${state}`).set('Cookie', cookie);
      expect(back.headers.location?.startsWith(`${custom}?access_token=tok-new`)).to.equal(true);

      const evil = await api().get('/api/connect/acme').query({ callback: 'http://evil.test/connect/acme/redirect' });
      expect(evil.status).to.equal(400);
      expect(evil.headers['set-cookie']).to.equal(undefined);
      expect(evil.body.error).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid callback URL provided',
        details: { callback: 'http://evil.test/connect/acme/redirect' },
      });
    });

    it('sends a built-in provider the app enabled through strapi.store to its own authorization page', async () => {
      const res = await api().get('/api/connect/discord');
      expect(res.status, JSON.stringify(res.body)).to.equal(302);
      const location = new URL(res.headers.location ?? '');
      expect(`${location.origin}${location.pathname}`).to.equal('https://discord.com/api/oauth2/authorize');
      expect(Object.fromEntries(location.searchParams)).to.include({
        client_id: 'dc-key',
        redirect_uri: 'http://cms.test/api/connect/discord/callback',
        scope: 'identify email',
      });
    });

    it('answers a disabled or unknown provider with "This provider is disabled"', async () => {
      applicationError(await api().get('/api/connect/google'), 'This provider is disabled');
      applicationError(await api().get('/api/connect/nobody'), 'This provider is disabled');
      applicationError(await api().get('/api/connect/google/callback?code=x'), 'This provider is disabled');
    });
  });

  describe('GET /api/auth/:provider/callback', () => {
    it('creates a confirmed user with the default role and the provider, and answers { jwt, user }', async () => {
      const res = await api().get('/api/auth/acme/callback?access_token=tok-new');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.user).to.include({
        username: 'ada',
        email: 'ada@acme.test',
        provider: 'acme',
        confirmed: true,
        blocked: false,
      });
      expect(res.body.user).not.to.have.property('password');
      const stored = await db().collection('up_users').findOne({ email: 'ada@acme.test' });
      const role = await db().collection('up_roles').findOne({ _id: stored?.role });
      expect(role?.type).to.equal('authenticated');
      const me = await api().get('/api/users/me').set('Authorization', `Bearer ${res.body.jwt}`);
      expect(me.status).to.equal(200);
      expect(me.body.id).to.equal(res.body.user.id);
    });

    it("takes the provider's name as it is, as Strapi's query engine stores it (no length rule)", async () => {
      const res = await api().get('/api/auth/acme/callback?access_token=tok-short');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.user).to.include({ username: 'al', email: 'al@acme.test' });
    });

    it('signs the same user in again', async () => {
      const first = await api().get('/api/auth/acme/callback?access_token=tok-new');
      const again = await api().get('/api/auth/acme/callback?access_token=tok-new');
      expect(again.status).to.equal(200);
      expect(again.body.user.id).to.equal(first.body.user.id);
      expect(await db().collection('up_users').countDocuments({ email: 'ada@acme.test' })).to.equal(1);
    });

    it('signs in through a built-in provider whose API address is fixed (GitHub: the primary e-mail)', async () => {
      const restore = await interceptHosts(['api.github.com'], fake.port);
      try {
        const res = await api().get('/api/auth/github/callback?access_token=gh-tok');
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.user).to.include({ username: 'octo', email: 'octo@github.test', provider: 'github' });
      } finally {
        await restore();
      }
      const user = fake.calls.find((call) => call.path === '/user');
      expect(user?.headers).to.include({
        authorization: 'Bearer gh-tok',
        'user-agent': 'strapi',
        host: 'api.github.com',
      });
    });

    it("refuses an e-mail another provider's user has: Email is already taken.", async () => {
      const local = await api()
        .post('/api/auth/local/register')
        .send({ username: 'bea-local', email: 'bea@local.test', password: 'Password123!' });
      expect(local.status).to.equal(200);
      applicationError(await api().get('/api/auth/acme/callback?access_token=tok-taken'), 'Email is already taken.');
      expect(await db().collection('up_users').countDocuments({ email: 'bea@local.test' })).to.equal(1);
    });

    it('answers a token the provider refuses, no token and a profile without e-mail with their messages', async () => {
      applicationError(await api().get('/api/auth/acme/callback?access_token=forged'), '401 Unauthorized');
      applicationError(await api().get('/api/auth/acme/callback'), 'No access_token.');
      applicationError(await api().get('/api/auth/acme/callback?access_token=tok-nomail'), 'Email was not available.');
    });

    it('refuses a blocked user', async () => {
      await db()
        .collection('up_users')
        .updateOne({ email: 'ada@acme.test' }, { $set: { blocked: true } });
      try {
        applicationError(
          await api().get('/api/auth/acme/callback?access_token=tok-new'),
          'Your account has been blocked by an administrator',
        );
      } finally {
        await db()
          .collection('up_users')
          .updateOne({ email: 'ada@acme.test' }, { $set: { blocked: false } });
      }
    });

    it('creates nobody with allow_register off, and still signs existing users in', async () => {
      await setAdvanced({ allow_register: false });
      try {
        applicationError(
          await api().get('/api/auth/acme/callback?access_token=tok-closed'),
          'Register action is actually not available.',
        );
        expect(await db().collection('up_users').countDocuments({ email: 'cy@acme.test' })).to.equal(0);
        expect((await api().get('/api/auth/acme/callback?access_token=tok-new')).status).to.equal(200);
      } finally {
        await setAdvanced({});
      }
    });

    it('answers a disabled provider with "This provider is disabled", the e-mail one closing the local login', async () => {
      applicationError(await api().get('/api/auth/google/callback?access_token=x'), 'This provider is disabled');
      applicationError(await api().get('/api/auth/nobody/callback?access_token=x'), 'This provider is disabled');
      await setGrant('acme.enabled', false);
      await setGrant('email.enabled', false);
      try {
        applicationError(await api().get('/api/auth/acme/callback?access_token=tok-new'), 'This provider is disabled');
        applicationError(
          await api().post('/api/auth/local').send({ identifier: 'bea-local', password: 'Password123!' }),
          'This provider is disabled',
        );
      } finally {
        await setGrant('acme.enabled', true);
        await setGrant('email.enabled', true);
      }
      expect(
        (await api().post('/api/auth/local').send({ identifier: 'bea-local', password: 'Password123!' })).status,
      ).to.equal(200);
    });

    it('GraphQL login with a provider runs the same checks (no access token in a mutation)', async () => {
      const login = (provider: string) =>
        api()
          .post('/graphql')
          .send({
            query: `mutation { login(input: { identifier: "x", password: "y", provider: "${provider}" }) { jwt } }`,
          });
      expect((await login('google')).body.errors[0].message).to.equal('This provider is disabled');
      expect((await login('acme')).body.errors[0].message).to.equal('No access_token.');
    });
  });
});

describe("users-permissions provider settings: Strapi's first start", () => {
  it('stores the grant settings Strapi 4.26.2 stores on a first start without server.url', async () => {
    const service = await createTestService();
    try {
      const stored = await service.context.connection
        .collection('strapi_core_store_settings')
        .findOne({ key: 'plugin_users-permissions_grant' });
      const recorded: unknown = JSON.parse(
        await readFile(new URL('../../fixtures/strapi-grant-settings.json', import.meta.url), 'utf8'),
      );
      expect(stored?.value).to.deep.equal(recorded);
    } finally {
      await service.close();
    }
  });
});
