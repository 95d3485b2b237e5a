// A project whose users-permissions extension requires `@strapi/plugin-users-permissions/server/utils`
// without the package installed: the service's module of the same exports answers, working through
// the running `strapi` as Strapi's does.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

const EXTENSION = `
const { getService, sanitize } = require('@strapi/plugin-users-permissions/server/utils');
const byIndex = require('@strapi/plugin-users-permissions/server/utils/index.js');

module.exports = (plugin) => {
  plugin.controllers.user.census = async (ctx) => {
    const role = { id: 1, name: 'Editors', description: 'edits', users: [{ id: 1 }] };
    const schema = strapi.getModel('plugin::users-permissions.role');
    ctx.body = {
      users: await getService('user').count(),
      role: await sanitize.sanitizers.defaultSanitizeOutput(schema, role),
      curried: await sanitize.sanitizers.sanitizeUserRelationFromRoleEntities(schema)(role),
      sameModule: byIndex.getService === getService,
      visitor: typeof sanitize.visitors.removeUserRelationFromRoleEntities,
    };
  };
  plugin.routes['content-api'].routes.push({
    method: 'GET',
    path: '/users-census',
    handler: 'user.census',
    config: { prefix: '', auth: false },
  });
  return plugin;
};
`;

describe('@strapi/plugin-users-permissions/server/utils required by a project that does not install it', () => {
  it('getService and sanitize answer as Strapi 4.26’s module: the project starts and its controller runs', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-up-utils-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'no-deps', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/extensions/users-permissions/strapi-server.js': EXTENSION,
    });
    const service = await createTestService({ appDir });
    try {
      await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'census', email: 'census@example.org', password: 'Password123!' })
        .expect(200);
      const res = await request(service.app).get('/api/users-census');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        users: 1,
        role: { id: 1, name: 'Editors', description: 'edits' },
        curried: { id: 1, name: 'Editors', description: 'edits' },
        sameModule: true,
        visitor: 'function',
      });
    } finally {
      await service.close();
    }
  });
});
