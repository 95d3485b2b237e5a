// A Strapi v4 project whose extension adds a content-type of its own to a plugin
// (`plugin.contentTypes.badge = { schema }` in src/extensions/users-permissions/strapi-server.js),
// which Strapi 4.26's plugin loader registers as `plugin::users-permissions.badge` before any
// register hook: stored, written and read by the app's code (entity service, query engine), a
// relation to the user from both sides, served over REST only where the plugin's routes name it
// (here through a core controller the extension adds), and in the GraphQL schema.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const BADGE_SCHEMA = `{
      kind: 'collectionType',
      collectionName: 'up_badges',
      info: { singularName: 'badge', pluralName: 'badges', displayName: 'Badge' },
      options: { draftAndPublish: false },
      attributes: {
        label: { type: 'string', required: true },
        owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'badges' },
      },
    }`;

const EXTENSION = `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = (plugin) => {
  plugin.contentTypes.badge = { schema: ${BADGE_SCHEMA} };
  plugin.contentTypes.user.schema.attributes.badges = {
    type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.badge', mappedBy: 'owner',
  };
  plugin.controllers.badge = createCoreController('plugin::users-permissions.badge');
  plugin.routes['content-api'].routes.push(
    { method: 'GET', path: '/badges', handler: 'badge.find', config: { prefix: '' } },
    { method: 'POST', path: '/badges', handler: 'badge.create', config: { prefix: '' } },
  );
  return plugin;
};`;

const INDEX = `module.exports = {
  register({ strapi }) {
    strapi.contentType('plugin::users-permissions.badge').attributes.level = { type: 'integer' };
  },
  async bootstrap({ strapi }) {
    const user = await strapi.db.query('plugin::users-permissions.user').create({
      data: { username: 'ann', email: 'ann@example.com', provider: 'local', confirmed: true, role: 1 },
    });
    await strapi.entityService.create('plugin::users-permissions.badge', { data: { label: 'gold', level: 3, owner: user.id } });
    await strapi.db.query('plugin::users-permissions.badge').create({ data: { label: 'silver', level: 2 } });
  },
};`;

const project = (extension: string): Record<string, string> => ({
  'package.json': json({ name: 'plugin-added-types', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'config/permissions.json': json({
    public: [
      'plugin::users-permissions.badge.find',
      'plugin::users-permissions.badge.create',
      'plugin::users-permissions.user.find',
    ],
    authenticated: ['plugin::users-permissions.user.me', 'plugin::users-permissions.badge.find'],
  }),
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { ratelimit: { enabled: false } } } };`,
  'src/api/note/content-types/note/schema.json': json({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { text: { type: 'string' } },
  }),
  'src/extensions/users-permissions/strapi-server.js': extension,
  'src/index.js': INDEX,
});

describe('a content-type an extension adds to a plugin (plugin.contentTypes.<name>)', () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(project(EXTENSION)) });
  });
  after(() => service.close());

  it('is stored and answered through the routes the plugin declares for it, with what register added', async () => {
    const list = await api().get('/api/badges?sort=id&populate=owner').expect(200);
    expect(list.body.data.map((badge: { attributes: { label: string } }) => badge.attributes.label)).to.deep.equal([
      'gold',
      'silver',
    ]);
    expect(list.body.data[0].attributes).to.include({ level: 3 });
    expect(list.body.data[0].attributes.owner.data.attributes).to.include({ username: 'ann' });
    expect(list.body.meta.pagination).to.include({ total: 2 });
    const created = await api()
      .post('/api/badges')
      .send({ data: { label: 'bronze', level: 1 } })
      .expect(200);
    expect(created.body.data.attributes).to.include({ label: 'bronze', level: 1 });
    const refused = await api()
      .post('/api/badges')
      .send({ data: { level: 1 } })
      .expect(400);
    expect(refused.body.error.name).to.equal('ValidationError');
    expect((await api().get('/api/badges').expect(200)).body.meta.pagination).to.include({ total: 3 });
  });

  it('serves no route the plugin does not declare', async () => {
    await api().get('/api/badges/1').expect(404);
    await api().get('/api/users-permissions/badges').expect(404);
  });

  it('is related to the user from its side too (mappedBy)', async () => {
    const login = await api()
      .post('/api/auth/local/register')
      .send({ username: 'bob', email: 'bob@example.com', password: 'Password123!' })
      .expect(200);
    const me = await api().get('/api/users/me?populate=badges').set(bearer(login.body.jwt)).expect(200);
    expect(me.body.badges).to.deep.equal([]);
    const users = await api().get('/api/users?filters[username]=ann&populate=badges').expect(200);
    expect(users.body[0].badges.map((badge: { label: string }) => badge.label)).to.deep.equal(['gold']);
  });

  it('is in the GraphQL schema as Strapi names a plugin type (usersPermissionsBadges)', async () => {
    const res = await api()
      .post('/graphql')
      .send({
        query: '{ usersPermissionsBadges(sort: "id") { data { id attributes { label owner { data { id } } } } } }',
      })
      .expect(200);
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    const labels = res.body.data.usersPermissionsBadges.data.map(
      (badge: { attributes: { label: string } }) => badge.attributes.label,
    );
    expect(labels).to.deep.equal(['gold', 'silver', 'bronze']);
  });
});

describe('an extension adding a plugin content-type under a key that is not its singularName', () => {
  it('stops start-up, as Strapi does, naming the extension', async () => {
    const message = await startUpError(
      project(`module.exports = (plugin) => {
  plugin.contentTypes.badges = { schema: ${BADGE_SCHEMA} };
  return plugin;
};`),
    );
    expect(message).to.contain('src/extensions/users-permissions/strapi-server.js');
    expect(message).to.contain('must be its info.singularName (found badges and badge)');
  });
});
