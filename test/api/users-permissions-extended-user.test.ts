// A Strapi v4 project that extends the user of users-permissions the common ways at once: extra
// attributes in `src/extensions/users-permissions/content-types/user/schema.json` (a text and a
// relation), the user service's `add` wrapped through `plugin.services.user`, and `auth.register`
// wrapped around the original. Registration takes the extra attributes, `/users/me` answers them
// and populates the relation, and the wrapped `add` is what registration calls, as Strapi 4.26's
// register calls `getService('user').add(newUser)`.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { extendedUserSchema } from '../helpers/user-schema.js';
import { bearer } from './users-permissions/helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const USER_SCHEMA = extendedUserSchema({
  fullName: { type: 'string' },
  // the content-type builder writes a biginteger's bounds as text; Strapi 4.26 checks none
  phone: { type: 'biginteger', max: '11' },
  team: { type: 'relation', relation: 'manyToOne', target: 'api::team.team', inversedBy: 'members' },
});

const EXTENSION = `
module.exports = (plugin) => {
  const userService = plugin.services.user;
  plugin.services.user = ({ strapi }) => {
    const users = userService({ strapi });
    return {
      ...users,
      async add(values) {
        return users.add({ ...values, fullName: values.fullName || values.username.toUpperCase() });
      },
    };
  };

  const register = plugin.controllers.auth.register;
  plugin.controllers.auth.register = async (ctx) => {
    await register(ctx);
    ctx.body.registeredBy = 'extension';
  };
  return plugin;
};
`;

const FILES: Record<string, string> = {
  'package.json': json({ name: 'extended-user', dependencies: {} }),
  // populate reaches a relation the caller may read (Strapi's sanitizeQuery drops the others)
  'config/permissions.json': json({ authenticated: ['plugin::users-permissions.user.me', 'api::team.team.find'] }),
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { register: { allowedFields: ['fullName', 'phone', 'team'] }, ratelimit: { enabled: false } } } };`,
  'src/extensions/users-permissions/content-types/user/schema.json': json(USER_SCHEMA),
  'src/extensions/users-permissions/strapi-server.js': EXTENSION,
  'src/api/team/content-types/team/schema.json': json({
    kind: 'collectionType',
    collectionName: 'teams',
    info: { singularName: 'team', pluralName: 'teams', displayName: 'Team' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      members: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'team' },
    },
  }),
  'src/api/team/controllers/team.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::team.team');`,
  'src/api/team/routes/team.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::team.team');`,
  'src/api/team/services/team.js': `module.exports = require('@strapi/strapi').factories.createCoreService('api::team.team');`,
  'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.entityService.create('api::team.team', { data: { name: 'Blue' } });
  },
};`,
};

describe('a project extending the users-permissions user (schema.json, services.user.add, auth.register)', () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it('registers with the extra attributes through the wrapped register and add, and answers them on /users/me', async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'Password123!', team: 1, phone: '0123456789' })
      .expect(200);
    expect(res.body.registeredBy).to.equal('extension');
    // a biginteger answers as text, as Strapi's database layer reads it, in register's answer too
    expect(res.body.user).to.include({ username: 'ann', fullName: 'ANN', phone: '123456789' });
    expect(res.body.user).to.not.have.property('password');
    const me = await api().get('/api/users/me').set(bearer(res.body.jwt)).expect(200);
    expect(me.body).to.include({ username: 'ann', fullName: 'ANN', phone: '123456789' });
    expect(me.body).to.not.have.property('team');
    const populated = await api().get('/api/users/me?populate=team').set(bearer(res.body.jwt)).expect(200);
    expect(populated.body.team).to.include({ id: 1, name: 'Blue' });
  });

  it("hands the app's add what Strapi's register does: the password it stores hashed, a login works", async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({
        username: 'bob',
        email: 'Bob@Example.com',
        password: 'Password123!',
        fullName: 'Bob B',
        confirmed: false,
      })
      .expect(200);
    expect(res.body.user).to.include({ username: 'bob', email: 'bob@example.com', fullName: 'Bob B', confirmed: true });
    await api().post('/api/auth/local').send({ identifier: 'bob', password: 'Password123!' }).expect(200);
    const taken = await api()
      .post('/api/auth/local/register')
      .send({ username: 'bob', email: 'bob2@example.com', password: 'Password123!' })
      .expect(400);
    expect(taken.body.error.message).to.equal('Email or Username are already taken');
  });
});

// what an extension puts on `plugin.contentTypes.user.schema` is stored (plugin-schema-edits.test.ts);
// on top of what schema.json declares, as Strapi applies the extension after the schema files
describe('attributes a users-permissions extension puts on plugin.contentTypes.user.schema', () => {
  it('start where schema.json declares them too (the extension repeating or changing them)', async () => {
    const message = await startUpError({
      'src/extensions/users-permissions/content-types/user/schema.json': json({
        ...USER_SCHEMA,
        attributes: { ...USER_SCHEMA.attributes, team: undefined, nickname: { type: 'string' } },
      }),
      'src/extensions/users-permissions/strapi-server.js': `module.exports = (plugin) => {
  Object.assign(plugin.contentTypes.user.schema.attributes, { nickname: { type: 'string', required: true } });
  return plugin;
};`,
    });
    expect(message).to.equal('started');
  });
});
