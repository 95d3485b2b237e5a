// A project's local TypeScript plugin that was never built: Strapi's generator makes its
// strapi-server.js `require('./dist/server')`, and its TypeScript dev mode runs the plugin from the
// sources (`server/index.ts`); a plugin whose strapi-server is TypeScript itself loads too.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const NOTE = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  attributes: { text: { type: 'string' } },
});

/** A plugin's TypeScript server (the generator's layout): a typed controller and one public route. */
const serverSources = (dir: string, answer: string): Record<string, string> => ({
  [`${dir}/server/index.ts`]: `import controllers from './controllers';
import { routes } from './routes';

export default { controllers, routes };
`,
  [`${dir}/server/routes.ts`]: `export const routes = {
  'content-api': {
    type: 'content-api',
    routes: [{ method: 'GET', path: '/hi', handler: 'hi.index', config: { auth: false } }],
  },
};
`,
  [`${dir}/server/controllers/index.ts`]: "import hi from './hi';\n\nexport default { hi };\n",
  [`${dir}/server/controllers/hi.ts`]: `interface Ctx { body: unknown }
export default () => ({
  index(ctx: Ctx): void {
    ctx.body = { from: '${answer}' as string };
  },
});
`,
});

describe('a local TypeScript plugin without its compiled dist', () => {
  it("runs the generator's plugin (strapi-server.js requiring ./dist/server) from server/index.ts", async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-unbuilt-ts-plugin-'));
    await writeFiles(appDir, {
      'config/plugins.js': `module.exports = {
        greeter: { enabled: true, resolve: './src/plugins/greeter' },
        typed: { enabled: true, resolve: './src/plugins/typed' },
      };`,
      'config/permissions.json': '{}',
      'src/api/note/content-types/note/schema.json': NOTE,
      'src/plugins/greeter/strapi-server.js': "'use strict';\n\nmodule.exports = require('./dist/server');\n",
      'src/plugins/greeter/package.json': JSON.stringify({ name: 'greeter', strapi: { kind: 'plugin' } }),
      ...serverSources('src/plugins/greeter', 'greeter sources'),
      'src/plugins/typed/strapi-server.ts': "import server from './server';\n\nexport default server;\n",
      ...serverSources('src/plugins/typed', 'typed sources'),
    });
    const service = await createTestService({ appDir });
    try {
      expect((await request(service.app).get('/api/greeter/hi').expect(200)).body).to.deep.equal({
        from: 'greeter sources',
      });
      expect((await request(service.app).get('/api/typed/hi').expect(200)).body).to.deep.equal({
        from: 'typed sources',
      });
    } finally {
      await service.close();
    }
  });

  it('still names what is missing when the plugin has a dist without the module', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-unbuilt-ts-plugin-'));
    await writeFiles(appDir, {
      'config/plugins.js': "module.exports = { greeter: { enabled: true, resolve: './src/plugins/greeter' } };",
      'config/permissions.json': '{}',
      'src/api/note/content-types/note/schema.json': NOTE,
      'src/plugins/greeter/strapi-server.js': "module.exports = require('./dist/server');\n",
      'src/plugins/greeter/dist/admin/index.js': 'module.exports = {};\n',
      ...serverSources('src/plugins/greeter', 'greeter sources'),
    });
    let failure: unknown;
    try {
      await (await createTestService({ appDir })).close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.contain(
      'src/plugins/greeter/strapi-server.js: imports "./dist/server", which does not exist',
    );
  });
});
