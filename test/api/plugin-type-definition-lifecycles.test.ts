// The `lifecycles` of a plugin content-type's definition (`contentTypes: { <name>: { schema,
// lifecycles } }`), which Strapi 4.26 copies onto the content-type and its database model, so its
// models subscriber runs them on every write and read of that type: a local plugin's own types
// (as its generator lays them out) and what an app's extension sets on a built-in plugin's type
// (`plugin.contentTypes.user.lifecycles = { afterCreate(event) {...} }`).
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const STAMP = {
  kind: 'collectionType',
  collectionName: 'stamps',
  info: { singularName: 'stamp', pluralName: 'stamps', displayName: 'Stamp' },
  options: { draftAndPublish: false },
  attributes: { code: { type: 'string' }, note: { type: 'string' } },
};

const FILES = {
  'config/plugins.js': `module.exports = {
  stamper: { enabled: true, resolve: './src/plugins/stamper' },
  'users-permissions': { config: { ratelimit: { enabled: false } } },
};`,
  'config/permissions.json': json({ public: ['plugin::stamper.stamp.list', 'plugin::stamper.stamp.make'] }),
  'src/api/note/content-types/note/schema.json': json({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { text: { type: 'string' } },
  }),
  'src/plugins/stamper/strapi-server.js': `module.exports = {
  contentTypes: {
    stamp: {
      schema: ${JSON.stringify(STAMP)},
      lifecycles: {
        beforeCreate(event) { event.params.data.code = 'S-' + String(event.params.data.note || '').toUpperCase(); },
        afterFindMany(event) { event.result.forEach((stamp) => { stamp.note = stamp.note + ' (read)'; }); },
      },
    },
  },
  controllers: {
    stamp: ({ strapi }) => ({
      list: () => strapi.db.query('plugin::stamper.stamp').findMany({ select: ['code', 'note'] }),
      make: (ctx) => strapi.entityService.create('plugin::stamper.stamp', { data: { note: ctx.request.body.note } }),
    }),
  },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/stamps', handler: 'stamp.list' },
        { method: 'POST', path: '/stamps', handler: 'stamp.make' },
      ],
    },
  },
};`,
  'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.user.lifecycles = {
    async afterCreate(event) {
      await strapi.db.query('plugin::stamper.stamp').create({ data: { note: 'welcome ' + event.result.username } });
    },
  };
  return plugin;
};`,
};

describe("the lifecycles of a plugin content-type's definition", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it("runs a local plugin's type's hooks on its writes and reads", async () => {
    const made = await api().post('/api/stamper/stamps').send({ note: 'first' }).expect(200);
    expect(made.body).to.include({ code: 'S-FIRST', note: 'first' });
    const list = await api().get('/api/stamper/stamps').expect(200);
    expect(list.body).to.have.length(1);
    expect(list.body[0]).to.include({ code: 'S-FIRST', note: 'first (read)' });
  });

  it('runs the hooks an extension set on the users-permissions user', async () => {
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'Password123!' })
      .expect(200);
    const list = await api().get('/api/stamper/stamps').expect(200);
    expect(list.body.map((stamp: { code: string }) => stamp.code)).to.include('S-WELCOME ANN');
  });
});
