// strapi.customFields.register in a project's own plugin (its register phase, as Strapi's custom
// field plugins do): Strapi's checks and messages, the uid it gives, the registered base type taken
// by a field no mapping knows, and a warning when config/custom-fields says otherwise.
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
        stars: { type: 'customField', customField: 'plugin::icons.stars' },
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
  it('gives a field only the app’s code knows its registered base type: REST, filters and GraphQL', async () => {
    const { logger, lines } = capturingLogger();
    const fields = `[${ICON}, { name: 'stars', plugin: 'icons', type: 'integer' }]`;
    const service = await createTestService({ appDir: await iconApp(fields), logger });
    try {
      expect(lines.filter((l) => l.level === WARN && /custom field/.test(l.msg ?? ''))).to.deep.equal([]);
      const { accessKey } = await createApiToken(service.context, { name: 'icons', type: 'full-access' });
      const api = () => request(service.app);
      const created = await api()
        .post('/api/badges')
        .set(bearer(accessKey))
        .send({ data: { name: 'star', icon: 'star-solid', stars: '4' } })
        .expect(200);
      expect(created.body.data.attributes).to.include({ icon: 'star-solid', stars: 4 });
      await api()
        .post('/api/badges')
        .set(bearer(accessKey))
        .send({ data: { name: 'moon', icon: 'moon', stars: 2 } })
        .expect(200);
      // an integer and a string, as registered: not any JSON value
      const refused = await api()
        .post('/api/badges')
        .set(bearer(accessKey))
        .send({ data: { icon: { name: 'x' }, stars: 'many' } })
        .expect(400);
      expect(refused.body.error.name).to.equal('ValidationError');
      const high = await api()
        .get('/api/badges?filters[stars][$gt]=3&fields[0]=name')
        .set(bearer(accessKey))
        .expect(200);
      expect(high.body.data.map((b: { attributes: { name: string } }) => b.attributes.name)).to.deep.equal(['star']);
      const gql = await api()
        .post('/graphql')
        .set(bearer(accessKey))
        .send({
          query:
            '{ __type(name: "Badge") { fields { name type { name } } } badges(filters: { stars: { gte: 2 } }, sort: "stars:desc") { data { attributes { name stars icon } } } }',
        })
        .expect(200);
      const types = Object.fromEntries(
        (gql.body.data.__type.fields as Array<{ name: string; type: { name: string } }>).map((f) => [
          f.name,
          f.type.name,
        ]),
      );
      expect(types).to.include({ icon: 'String', stars: 'Int' });
      expect(gql.body.data.badges.data).to.deep.equal([
        { attributes: { name: 'star', stars: 4, icon: 'star-solid' } },
        { attributes: { name: 'moon', stars: 2, icon: 'moon' } },
      ]);
    } finally {
      await service.close();
    }
  });

  it('keeps the base type config/custom-fields gives, telling the mapping that would follow the registration', async () => {
    const { logger, lines } = capturingLogger();
    const appDir = await iconApp(`[${ICON}]`, { 'config/custom-fields.json': '{ "plugin::icons.icon": "text" }' });
    const service = await createTestService({ appDir, logger });
    try {
      const warnings = lines.filter((l) => l.level === WARN).map((l) => l.msg ?? '');
      expect(warnings).to.include(
        'api::badge.badge (attribute "icon"): custom field "plugin::icons.icon" is registered as string by the ' +
          "app's code, but config/custom-fields or the known plugins give it text, which is kept; to store it as " +
          'string, map it in config/custom-fields: { "plugin::icons.icon": "string" }',
      );
      // the field no mapping knows and no code registers: JSON, told once the register hooks have run
      expect(warnings.filter((w) => w.includes('"plugin::icons.stars" has no known base type'))).to.have.length(1);
      expect(service.context.registry.contentType('api::badge.badge')?.attributes.icon?.type).to.equal('text');
      expect(service.context.registry.contentType('api::badge.badge')?.attributes.stars?.type).to.equal('json');
    } finally {
      await service.close();
    }
  });

  it('has nothing to tell once config/custom-fields maps it to the registered type', async () => {
    const { logger, lines } = capturingLogger();
    const appDir = await iconApp(`[${ICON}]`, { 'config/custom-fields.json': '{ "plugin::icons.icon": "string" }' });
    const service = await createTestService({ appDir, logger });
    try {
      expect(lines.filter((l) => l.level === WARN && /plugin::icons\.icon/.test(l.msg ?? ''))).to.deep.equal([]);
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
