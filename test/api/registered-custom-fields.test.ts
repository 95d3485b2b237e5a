// strapi.customFields.register in a project's own plugin (its register phase, as Strapi's custom
// field plugins do): Strapi's checks and messages, the uid it gives, and a warning with the
// config/custom-fields mapping when the content-types were built with another base type.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

/** A project whose plugin `icons` registers `fields` (JS source) in its register phase. */
async function iconApp(fields: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-custom-field-'));
  await writeFiles(dir, {
    'config/plugins.js': `module.exports = { icons: { enabled: true, resolve: './src/plugins/icons' } };`,
    'src/plugins/icons/strapi-server.js': `module.exports = { register({ strapi }) { strapi.customFields.register(${fields}); } };`,
    'src/api/badge/content-types/badge/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'badges',
      info: { singularName: 'badge', pluralName: 'badges', displayName: 'Badge' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        icon: { type: 'customField', customField: 'plugin::icons.icon', options: { set: 'solid' } },
      },
    }),
    ...extra,
  });
  return dir;
}

const ICON = `{ name: 'icon', plugin: 'icons', type: 'string', inputSize: { default: 4, isResizable: true } }`;

async function startError(fields: string): Promise<string> {
  const service = await createTestService({ appDir: await iconApp(fields) }).catch((err: Error) => err);
  if (service instanceof Error) return service.message;
  await service.close();
  return 'started';
}

describe("custom fields registered by a project's plugin (strapi.customFields.register)", () => {
  it('starts, and tells the mapping when the content-type was built with another base type', async () => {
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir: await iconApp(ICON), logger });
    try {
      const warnings = lines.filter((l) => l.level === WARN).map((l) => l.msg ?? '');
      expect(warnings).to.include(
        'api::badge.badge (attribute "icon"): custom field "plugin::icons.icon" is registered as string by the ' +
          "app's code, after the content-types were built with json; to store it as string, map it in " +
          'config/custom-fields: { "plugin::icons.icon": "string" }',
      );
      const { accessKey } = await createApiToken(service.context, { name: 'icons', type: 'full-access' });
      const created = await request(service.app)
        .post('/api/badges')
        .set(bearer(accessKey))
        .send({ data: { name: 'star', icon: 'star-solid' } })
        .expect(200);
      expect(created.body.data.attributes.icon).to.equal('star-solid');
    } finally {
      await service.close();
    }
  });

  it('has nothing to tell once config/custom-fields maps it to the registered type', async () => {
    const { logger, lines } = capturingLogger();
    const appDir = await iconApp(`[${ICON}]`, { 'config/custom-fields.json': '{ "plugin::icons.icon": "string" }' });
    const service = await createTestService({ appDir, logger });
    try {
      expect(lines.filter((l) => l.level === WARN && /custom field/.test(l.msg ?? ''))).to.deep.equal([]);
      const { accessKey } = await createApiToken(service.context, { name: 'icons', type: 'full-access' });
      // a string field: a number is refused as for any string attribute
      const refused = await request(service.app)
        .post('/api/badges')
        .set(bearer(accessKey))
        .send({ data: { icon: 12 } })
        .expect(400);
      expect(refused.body.error.name).to.equal('ValidationError');
    } finally {
      await service.close();
    }
  });

  it("refuses what Strapi's registry refuses, with its messages", async () => {
    expect(await startError(`{ name: 'icon' }`)).to.include(`Custom fields require a 'name' and 'type' key`);
    expect(await startError(`{ name: 'icon', type: 'media' }`)).to.include(
      `Custom field type: 'media' is not a valid Strapi type or it can't be used with a Custom Field`,
    );
    expect(await startError(`{ name: '9icon', type: 'string' }`)).to.include(
      `Custom field name: '9icon' is not a valid object key`,
    );
    expect(
      await startError(`{ name: 'icon', type: 'string', inputSize: { default: 5, isResizable: true } }`),
    ).to.include('Custom fields require a valid default input size');
    expect(await startError(`[${ICON}, ${ICON}]`)).to.include(
      `Custom field: 'plugin::icons.icon' has already been registered`,
    );
    // no plugin of that name: a global field
    expect(
      await startError(`[{ name: 'icon', plugin: 'nope', type: 'string' }, { name: 'icon', type: 'text' }]`),
    ).to.include(`Custom field: 'global::icon' has already been registered`);
  });
});
