// The order of the project's plugins' lifecycle functions, as Strapi 4.26's loader gives it: the
// plugins config/plugins declares, in its order (local and installed alike), then the other
// installed ones in the app's package.json order; the built-in plugins' register (what an extension
// put on their object) at their place among them, as Strapi's internal plugins or as packages.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A plugin whose register and bootstrap note their name in `strapi.config` `order`. */
const recording = (name: string) => `module.exports = {
  register({ strapi }) { strapi.config.set('order', [...strapi.config.get('order', []), 'register ${name}']); },
  bootstrap({ strapi }) { strapi.config.set('order', [...strapi.config.get('order', []), 'bootstrap ${name}']); },
};
`;

const installed = (name: string) => ({
  [`node_modules/acme-${name}/package.json`]: json({
    name: `acme-${name}`,
    version: '1.0.0',
    strapi: { name, kind: 'plugin' },
  }),
  [`node_modules/acme-${name}/strapi-server.js`]: recording(name),
});

describe("the project's plugins run in Strapi's order", () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-plugin-order-'));
    await writeFiles(appDir, {
      'package.json': json({
        name: 'app',
        dependencies: { 'acme-gamma': '1.0.0', 'acme-beta': '1.0.0', 'acme-delta': '1.0.0' },
      }),
      ...installed('gamma'),
      ...installed('beta'),
      ...installed('delta'),
      'src/plugins/alpha/strapi-server.js': recording('alpha'),
      'src/api/note/content-types/note/schema.json': json({
        kind: 'collectionType',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        attributes: { text: { type: 'string' } },
      }),
      'config/plugins.js': "module.exports = { beta: { enabled: true }, alpha: { resolve: './src/plugins/alpha' } };",
      'src/index.js':
        "module.exports = { register({ strapi }) { strapi.config.set('order', [...strapi.config.get('order', []), 'register app']); } };",
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('declared ones in config/plugins order, then the others in package.json order, before the app', () => {
    expect(runningStrapi()?.config.get('order')).to.deep.equal([
      'register beta',
      'register alpha',
      'register gamma',
      'register delta',
      'register app',
      'bootstrap beta',
      'bootstrap alpha',
      'bootstrap gamma',
      'bootstrap delta',
    ]);
  });
});

/** An extension of a built-in plugin whose register notes its name, after the plugin's own. */
const recordingExtension = (name: string) => `module.exports = (plugin) => {
  const register = plugin.register;
  plugin.register = async ({ strapi }) => {
    await register({ strapi });
    strapi.config.set('order', [...strapi.config.get('order', []), 'register ${name}']);
  };
  return plugin;
};
`;

describe("built-in plugins register at their place in Strapi's order", () => {
  const start = async (pluginsConfig: string, dependencies: Record<string, string>) => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-plugin-order-'));
    await writeFiles(appDir, {
      'package.json': json({ name: 'app', dependencies }),
      ...installed('gamma'),
      'src/plugins/alpha/strapi-server.js': recording('alpha'),
      'src/extensions/users-permissions/strapi-server.js': recordingExtension('users-permissions'),
      'src/extensions/email/strapi-server.js': recordingExtension('email'),
      'src/api/note/content-types/note/schema.json': json({
        kind: 'collectionType',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        attributes: { text: { type: 'string' } },
      }),
      'config/plugins.js': pluginsConfig,
    });
    return createTestService({ appDir });
  };
  const registered = () =>
    (runningStrapi()?.config.get('order') as string[]).filter((entry) => entry.startsWith('register'));

  it("Strapi's internal ones first, the declared ones, then the installed ones in package.json order (users-permissions a package there)", async () => {
    const service = await start("module.exports = { alpha: { resolve: './src/plugins/alpha' } };", {
      '@strapi/plugin-users-permissions': '4.26.2',
      'acme-gamma': '1.0.0',
      '@strapi/strapi': '4.26.2',
    });
    try {
      expect(registered()).to.deep.equal([
        'register email',
        'register alpha',
        'register users-permissions',
        'register gamma',
      ]);
    } finally {
      await service.close();
    }
  });

  it('a built-in plugin config/plugins declares takes its place there', async () => {
    const service = await start(
      "module.exports = { 'users-permissions': { config: {} }, alpha: { resolve: './src/plugins/alpha' } };",
      { 'acme-gamma': '1.0.0' },
    );
    try {
      expect(registered()).to.deep.equal([
        'register email',
        'register users-permissions',
        'register alpha',
        'register gamma',
      ]);
    } finally {
      await service.close();
    }
  });
});
