// The order of the project's plugins' lifecycle functions, as Strapi 4.26's loader gives it: the
// plugins config/plugins declares, in its order (local and installed alike), then the other
// installed ones in the app's package.json order.
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
