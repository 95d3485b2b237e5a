// Files of `@strapi/plugin-users-permissions` that public projects' extensions require besides
// `server/utils` and the validations (a survey of public repositories): the `sanitize` of its
// utils, and the jwt and user service factories that extensions wrap. Without the package
// installed, the service's modules answer; a file it does not serve stops start-up naming it.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const EXTENSION = `
const jwt = require('@strapi/plugin-users-permissions/server/services/jwt');
const users = require('@strapi/plugin-users-permissions/server/services/user.js');
const { sanitizers, visitors } = require('@strapi/plugin-users-permissions/server/utils/sanitize');

module.exports = (plugin) => {
  plugin.services.jwt = ({ strapi }) => {
    const own = jwt({ strapi });
    return { ...own, issue: (payload, options) => own.issue({ ...payload, scope: 'extension' }, options) };
  };
  plugin.services.user = ({ strapi }) => ({ ...users({ strapi }), greet: (name) => 'hi ' + name });
  plugin.controllers.user.tokens = async (ctx) => {
    const jwtService = strapi.plugin('users-permissions').service('jwt');
    const userService = strapi.plugin('users-permissions').service('user');
    const payload = await jwtService.verify(jwtService.issue({ id: 7 }));
    const role = { id: 1, name: 'Editors', users: [{ id: 1 }] };
    ctx.body = {
      id: payload.id,
      scope: payload.scope,
      greeting: userService.greet('ann'),
      users: await userService.count(),
      fetched: (await userService.fetch(1)).username,
      role: await sanitizers.defaultSanitizeOutput(strapi.getModel('plugin::users-permissions.role'), role),
      visitor: typeof visitors.removeUserRelationFromRoleEntities,
    };
  };
  plugin.routes['content-api'].routes.push({
    method: 'GET',
    path: '/tokens',
    handler: 'user.tokens',
    config: { prefix: '', auth: false },
  });
  return plugin;
};
`;

describe('@strapi/plugin-users-permissions service factories and utils/sanitize, required by a project that does not install them', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-up-files-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'no-deps', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/extensions/users-permissions/strapi-server.js': EXTENSION,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("makes the plugin's own jwt and user services inside the app's wrappers, which strapi.plugin() then gives", async () => {
    await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    const res = await request(service.app).get('/api/tokens');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      id: 7,
      scope: 'extension',
      greeting: 'hi ann',
      users: 1,
      fetched: 'ann',
      role: { id: 1, name: 'Editors' },
      visitor: 'function',
    });
  });
});

describe('a file of @strapi/plugin-users-permissions the service does not serve', () => {
  it('stops start-up naming the file and the ones served', async () => {
    const message = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `const providers = require('@strapi/plugin-users-permissions/server/services/providers');
module.exports = (plugin) => plugin;`,
    });
    expect(message).to.equal(
      'src/extensions/users-permissions/strapi-server.js: requires "@strapi/plugin-users-permissions/server/services/providers", ' +
        'a file of the users-permissions plugin that Content Service does not offer (it offers server/utils, server/utils/sanitize, ' +
        'server/controllers/validation/auth, server/controllers/validation/user, server/services/jwt, server/services/user): ' +
        "use strapi.plugin('users-permissions') or remove what uses it",
    );
  });
});
