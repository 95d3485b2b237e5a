// users-permissions' providers-registry service (Strapi 4.26): projects add their own OAuth
// provider from register; the registry keeps it after `email` and Strapi's built-in providers,
// answers get/getAll, and `run` calls the provider's authCallback.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const INDEX = `module.exports = {
  register({ strapi }) {
    strapi.plugin('users-permissions').service('providers-registry').add('acme', {
      enabled: true,
      icon: 'acme',
      grantConfig: { key: 'acme-key', secret: 'acme-secret', callback: '/api/auth/acme/callback', scope: ['email'] },
      async authCallback({ accessToken }) {
        return { username: 'acme-' + accessToken, email: accessToken + '@acme.test' };
      },
    });
  },
};
`;

const CONTROLLER = `module.exports = {
  async hello(ctx) {
    const registry = strapi.plugin('users-permissions').service('providers-registry');
    let unknown;
    try {
      await registry.run({ provider: 'nobody', accessToken: 'x' });
    } catch (err) {
      unknown = err.message;
    }
    ctx.body = {
      names: Object.keys(registry.getAll()),
      acme: { enabled: registry.get('acme').enabled, scope: registry.get('acme').grantConfig.scope },
      profile: await registry.run({ provider: 'acme', accessToken: 'tok', query: {}, providers: {} }),
      unknown,
    };
  },
};
`;

describe("users-permissions' providers-registry service", () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-providers-registry-'));
    await writeFiles(appDir, {
      ...NOTE_HELLO_API,
      'src/index.js': INDEX,
      'src/api/note/controllers/note.js': CONTROLLER,
      'src/api/note/routes/hello.js':
        "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };",
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("keeps the provider a project adds in register after Strapi's, and runs its authCallback", async () => {
    const res = await request(service.app).get('/api/hello');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      names: [
        'email',
        ...['discord', 'facebook', 'google', 'github', 'microsoft', 'twitter', 'instagram', 'vk', 'twitch'],
        ...['linkedin', 'cognito', 'reddit', 'auth0', 'cas', 'patreon', 'keycloak', 'acme'],
      ],
      acme: { enabled: true, scope: ['email'] },
      profile: { username: 'acme-tok', email: 'tok@acme.test' },
      unknown: 'Unknown auth provider',
    });
  });
});
