// A Strapi v4 project whose code changes the content-types of plugins, as Strapi 4.26 takes it:
// `src/extensions/users-permissions/strapi-server` adding attributes to
// `plugin.contentTypes.user.schema.attributes` (set one by one, spread into a new object,
// Object.assign) and replacing one, and `register({ strapi })` doing the same through
// `strapi.plugin(...).contentTypes.user` / `strapi.contentType(uid)` (Strapi builds its database
// metadata from these after register). The attributes are stored, answered, populated from both
// sides of a relation, filtered on, and in the GraphQL schema.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, WARN, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const coreApi = (api: string) => ({
  [`src/api/${api}/controllers/${api}.js`]: `module.exports = require('@strapi/strapi').factories.createCoreController('api::${api}.${api}');`,
  [`src/api/${api}/routes/${api}.js`]: `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::${api}.${api}');`,
  [`src/api/${api}/services/${api}.js`]: `module.exports = require('@strapi/strapi').factories.createCoreService('api::${api}.${api}');`,
});

const collection = (singularName: string, pluralName: string, attributes: Record<string, unknown>) =>
  json({
    kind: 'collectionType',
    collectionName: pluralName.replace('-', '_'),
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes,
  });

/** a project with teams (the inverse side of the user's `team`), countries, an address component */
const project = (code: Record<string, string>): Record<string, string> => ({
  'package.json': json({ name: 'plugin-schema-edits', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'config/permissions.json': json({
    authenticated: [
      'plugin::users-permissions.user.me',
      'plugin::users-permissions.user.find',
      'plugin::users-permissions.user.update',
      'api::team.team.find',
      'api::team.team.findOne',
      'api::team.team.create',
      'api::country.country.find',
    ],
  }),
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { register: { allowedFields: ['firstName', 'team', 'country', 'address'] }, ratelimit: { enabled: false } } } };`,
  'src/api/team/content-types/team/schema.json': collection('team', 'teams', {
    name: { type: 'string' },
    motto: { type: 'string' },
    members: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'team' },
  }),
  'src/api/country/content-types/country/schema.json': collection('country', 'countries', { name: { type: 'string' } }),
  'src/components/shared/address.json': json({
    collectionName: 'components_shared_addresses',
    info: { displayName: 'Address' },
    attributes: { city: { type: 'string' } },
  }),
  ...coreApi('team'),
  ...coreApi('country'),
  ...code,
});

const SEED = `
  async bootstrap({ strapi }) {
    await strapi.entityService.create('api::team.team', { data: { name: 'Blue', motto: 'onwards' } });
    await strapi.entityService.create('api::country.country', { data: { name: 'France' } });
  },`;

const EXTENSION = `module.exports = (plugin) => {
  const user = plugin.contentTypes.user;
  user.schema.attributes.firstName = { type: 'string' };
  user.schema.attributes.avatar = { type: 'media', allowedTypes: ['images'] };
  user.schema.attributes = {
    ...user.schema.attributes,
    team: { type: 'relation', relation: 'manyToOne', target: 'api::team.team', inversedBy: 'members' },
  };
  Object.assign(user.schema.attributes, {
    country: { type: 'relation', relation: 'manyToOne', target: 'api::country.country' },
    address: { type: 'component', component: 'shared.address' },
  });
  user.schema.attributes.username = { ...user.schema.attributes.username, maxLength: 12 };
  return plugin;
};`;

const REGISTER = `module.exports = {
  register({ strapi }) {
    const user = strapi.plugin('users-permissions').contentTypes.user;
    user.attributes.firstName = { type: 'string' };
    user.attributes.avatar = { type: 'media', allowedTypes: ['images'] };
    const attributes = strapi.contentType('plugin::users-permissions.user').attributes;
    Object.assign(attributes, {
      team: { type: 'relation', relation: 'manyToOne', target: 'api::team.team', inversedBy: 'members' },
      country: { type: 'relation', relation: 'manyToOne', target: 'api::country.country' },
      address: { type: 'component', component: 'shared.address' },
    });
    attributes.username = { ...attributes.username, maxLength: 12 };
    delete strapi.contentTypes['api::team.team'].attributes.motto;
    strapi.contentTypes['api::team.team'].attributes.slogan = { type: 'string' };
    strapi.components['shared.address'].attributes.zip = { type: 'string' };
  },${SEED}
};`;

const projects: Array<[string, Record<string, string>]> = [
  [
    'an extension (src/extensions/users-permissions/strapi-server.js)',
    {
      'src/extensions/users-permissions/strapi-server.js': EXTENSION,
      'src/index.js': `module.exports = {${SEED}\n};`,
    },
  ],
  ['register({ strapi }) of src/index.js', { 'src/index.js': REGISTER }],
];

for (const [by, code] of projects)
  describe(`attributes of the users-permissions user added by ${by}`, () => {
    let service: TestService;
    let jwt: string;
    let userId: number;
    let logLines: LogLine[];
    const api = () => request(service.app);
    before(async () => {
      const { logger, lines } = capturingLogger();
      logLines = lines;
      service = await createTestService({ appDir: await writeTempProject(project(code)), logger });
      const res = await api()
        .post('/api/auth/local/register')
        .send({
          username: 'ann',
          email: 'ann@example.com',
          password: 'Password123!',
          firstName: 'Ann',
          team: 1,
          country: 1,
          address: { city: 'Lyon' },
        })
        .expect(200);
      jwt = res.body.jwt as string;
      userId = res.body.user.id as number;
      expect(res.body.user).to.include({ username: 'ann', firstName: 'Ann' });
    });
    after(() => service.close());

    it('registers with them (register.allowedFields) and answers them on /users/me?populate=*', async () => {
      const me = await api().get('/api/users/me?populate=*').set(bearer(jwt)).expect(200);
      expect(me.body).to.include({ username: 'ann', firstName: 'Ann', avatar: null });
      expect(me.body.team).to.include({ id: 1, name: 'Blue' });
      expect(me.body.country).to.include({ id: 1, name: 'France' });
      expect(me.body.address).to.include({ city: 'Lyon' });
    });

    it('writes them with PUT /api/users/:id and filters on them', async () => {
      const res = await api()
        .put(`/api/users/${userId}`)
        .set(bearer(jwt))
        .send({ firstName: 'Annie', address: { city: 'Nice' } })
        .expect(200);
      expect(res.body).to.include({ firstName: 'Annie' });
      const found = await api().get('/api/users?filters[firstName][$eq]=Annie').set(bearer(jwt)).expect(200);
      expect(found.body.map((user: { username: string }) => user.username)).to.deep.equal(['ann']);
      const none = await api().get('/api/users?filters[firstName][$eq]=Ann').set(bearer(jwt)).expect(200);
      expect(none.body).to.deep.equal([]);
      const me = await api().get('/api/users/me?populate=address').set(bearer(jwt)).expect(200);
      expect(me.body.address).to.include({ city: 'Nice' });
    });

    it('populates the relation from the api side, which maps it (mappedBy), and warns of nothing', async () => {
      expect(logLines.filter((line) => line.level >= WARN).map((line) => line.msg)).to.deep.equal([]);
      const team = await api().get('/api/teams/1?populate=members').set(bearer(jwt)).expect(200);
      expect(team.body.data.attributes.members.data.map((m: { id: number }) => m.id)).to.deep.equal([userId]);
    });

    it('checks a replaced attribute as replaced (username maxLength 12)', async () => {
      const res = await api()
        .post('/api/auth/local/register')
        .send({ username: 'a-very-long-username', email: 'long@example.com', password: 'Password123!' })
        .expect(400);
      expect(res.body.error.name).to.equal('ValidationError');
    });

    it('has them in the GraphQL type UsersPermissionsUser', async () => {
      const res = await api()
        .post('/graphql')
        .send({ query: '{ __type(name: "UsersPermissionsUser") { fields { name } } }' })
        .expect(200);
      const fields = (res.body.data.__type.fields as Array<{ name: string }>).map((field) => field.name);
      expect(fields).to.include.members(['firstName', 'avatar', 'team', 'country', 'address']);
    });
  });

describe('attributes register({ strapi }) removes from and adds to an api content-type and a component', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(project({ 'src/index.js': REGISTER })) });
  });
  after(() => service.close());

  it('is neither stored nor answered', async () => {
    const login = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'bob', email: 'bob@example.com', password: 'Password123!' })
      .expect(200);
    const team = await request(service.app).get('/api/teams/1').set(bearer(login.body.jwt)).expect(200);
    expect(team.body.data.attributes).to.include({ name: 'Blue' });
    expect(team.body.data.attributes).to.not.have.property('motto');
    expect(team.body.data.attributes).to.include({ slogan: null });
  });

  it('stores an attribute added to a component (strapi.components[uid].attributes)', async () => {
    const res = await request(service.app)
      .post('/api/auth/local/register')
      .send({
        username: 'dee',
        email: 'dee@example.com',
        password: 'Password123!',
        address: { city: 'Lyon', zip: '69001' },
      })
      .expect(200);
    const me = await request(service.app).get('/api/users/me?populate=address').set(bearer(res.body.jwt)).expect(200);
    expect(me.body.address).to.include({ city: 'Lyon', zip: '69001' });
  });

  it('writes the added one through the core routes, JSON and multipart', async () => {
    const login = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'cid', email: 'cid@example.com', password: 'Password123!' })
      .expect(200);
    const created = await request(service.app)
      .post('/api/teams')
      .set(bearer(login.body.jwt))
      .send({ data: { name: 'Red', slogan: 'faster', motto: 'ignored' } })
      .expect(200);
    expect(created.body.data.attributes).to.include({ name: 'Red', slogan: 'faster' });
    expect(created.body.data.attributes).to.not.have.property('motto');
    const multipart = await request(service.app)
      .post('/api/teams')
      .set(bearer(login.body.jwt))
      .field('data', JSON.stringify({ name: 'Green', slogan: 'greener' }))
      .expect(200);
    expect(multipart.body.data.attributes).to.include({ name: 'Green', slogan: 'greener' });
    const found = await request(service.app)
      .get('/api/teams?filters[slogan][$eq]=greener')
      .set(bearer(login.body.jwt))
      .expect(200);
    expect(found.body.data.map((team: { id: number }) => team.id)).to.deep.equal([multipart.body.data.id]);
  });
});

describe('plugin content-type changes that cannot start', () => {
  it('an extension that adds nothing starts', async () => {
    const message = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.user.schema.attributes = { ...plugin.contentTypes.user.schema.attributes };
  return plugin;
};`,
    });
    expect(message).to.equal('started');
  });

  it('an attribute of no type stops start-up naming the content-type and the code that changed it', async () => {
    const message = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.user.schema.attributes.nickname = { type: 'text-ish' };
  return plugin;
};`,
    });
    // as a schema.json's attribute of that type (Strapi's database layer says "Unknown type text-ish")
    expect(message).to.match(
      /^plugin::users-permissions\.user as src\/extensions\/users-permissions\/strapi-server\.js or the register hooks changed it \(attribute "nickname"\): unknown attribute type "text-ish"; Strapi v4's types are string, /,
    );
  });
});

describe("attributes extensions add to the upload plugin's file and to a local plugin's content-type", () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      'config/plugins.js': `module.exports = { tally: { enabled: true, resolve: './src/plugins/tally' } };`,
      'src/plugins/tally/package.json': json({ name: 'tally', strapi: { kind: 'plugin', name: 'tally' } }),
      'src/plugins/tally/strapi-server.js': `module.exports = { contentTypes: { counter: { schema: ${collection('counter', 'tally-counters', { value: { type: 'integer' } })} } } };`,
      'src/extensions/tally/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.counter.schema.attributes.label = { type: 'string' };
  return plugin;
};`,
      'src/extensions/upload/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.file.schema.attributes.credit = { type: 'string' };
  return plugin;
};`,
      'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.entityService.create('plugin::tally.counter', { data: { value: 3, label: 'three' } });
    await strapi.entityService.create('plugin::tally.counter', { data: { value: 4, label: 'four' } });
  },
};`,
      'src/api/probe/controllers/probe.js': `module.exports = {
  async show(ctx) {
    await strapi.entityService.update('plugin::upload.file', Number(ctx.query.file), { data: { credit: 'Ann' } });
    ctx.body = await strapi.entityService.findMany('plugin::tally.counter', { filters: { label: 'three' }, fields: ['value', 'label'] });
  },
};`,
      'src/api/probe/routes/probe.js': `module.exports = { routes: [{ method: 'GET', path: '/probe', handler: 'probe.show', config: { auth: false } }] };`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('stores and answers them', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'uploads', type: 'full-access' });
    const auth = { Authorization: `Bearer ${accessKey}` };
    const [file] = (
      await request(service.app)
        .post('/api/upload')
        .set(auth)
        .attach('files', Buffer.from('notes'), 'notes.txt')
        .expect(200)
    ).body as Array<{ id: number; credit?: unknown }>;
    expect(file).to.include({ credit: null });
    const counters = await request(service.app)
      .get(`/api/probe?file=${String(file?.id)}`)
      .expect(200);
    expect(counters.body).to.deep.equal([{ id: 1, value: 3, label: 'three' }]);
    const stored = await request(service.app)
      .get(`/api/upload/files/${String(file?.id)}`)
      .set(auth)
      .expect(200);
    expect(stored.body).to.include({ name: 'notes.txt', credit: 'Ann' });
  });
});

const ARTICLE = collection('article', 'articles', {
  title: { type: 'string' },
  likedBy: {
    type: 'relation',
    relation: 'manyToMany',
    target: 'plugin::users-permissions.user',
    inversedBy: 'likedArticles',
  },
});

describe("an api type's inversedBy naming a user attribute the extension adds", () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      'config/permissions.json': json({
        public: ['api::article.article.find', 'plugin::users-permissions.user.findOne'],
      }),
      'src/api/article/content-types/article/schema.json': ARTICLE,
      ...coreApi('article'),
      'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.user.schema.attributes.likedArticles = {
    type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'likedBy',
  };
  return plugin;
};`,
      'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const user = await strapi.entityService.create('plugin::users-permissions.user', {
      data: { username: 'ann', email: 'ann@example.com', provider: 'local', confirmed: true },
    });
    await strapi.entityService.create('api::article.article', { data: { title: 'Hello', likedBy: [user.id] } });
  },
};`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('starts, and the relation is populated from both sides', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'all', type: 'full-access' });
    const auth = { Authorization: `Bearer ${accessKey}` };
    const articles = await request(service.app).get('/api/articles?populate=likedBy').set(auth).expect(200);
    expect(articles.body.data[0].attributes.likedBy.data.map((user: { id: number }) => user.id)).to.deep.equal([1]);
    const user = await request(service.app).get('/api/users/1?populate=likedArticles').set(auth).expect(200);
    expect(user.body.likedArticles.map((article: { title: string }) => article.title)).to.deep.equal(['Hello']);
  });

  it('stops start-up as before when no code adds it', async () => {
    const message = await startUpError({ 'src/api/article/content-types/article/schema.json': ARTICLE });
    expect(message).to.contain(
      '/src/api/article/content-types/article/schema.json (attribute "likedBy"): inversedBy "likedArticles" must name a relation of ' +
        'plugin::users-permissions.user with mappedBy "likedBy"; add that attribute to plugin::users-permissions.user or remove "inversedBy"',
    );
  });
});
