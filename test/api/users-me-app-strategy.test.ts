// /api/users/me (and GraphQL `me`) for a caller a project's own content-API strategy authenticated,
// as Strapi 4.26's users-permissions `me` answers it: from `ctx.state.user`, which Strapi's auth
// service leaves to the strategy. A strategy that set the user there (a Firebase-style sign-in
// looking its user up) gets that user read again with the query's populate; one that set a user
// whose id names none gets Strapi's empty answer (ctx.body = null: 204); one that set nothing a 401.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

// `idp-<email>`: the user of that e-mail, set on ctx.state.user; `idp-ghost`: a user id that names
// no user; `svc-<name>`: a service, authenticated without a user
const INDEX = `module.exports = {
  register({ strapi }) {
    strapi.container.get('auth').register('content-api', {
      name: 'idp',
      async authenticate(ctx) {
        const key = (ctx.request.header.authorization || '').replace(/^Bearer /, '');
        if (key === 'idp-ghost') {
          ctx.state.user = { id: '9999', username: 'ghost' };
          return { authenticated: true, credentials: ctx.state.user };
        }
        if (key.startsWith('idp-')) {
          const user = await strapi.db.query('plugin::users-permissions.user').findOne({
            where: { email: key.slice(4) },
            populate: ['role'],
          });
          if (!user) return { error: 'Unknown identity' };
          ctx.state.user = user;
          return { authenticated: true, credentials: user };
        }
        if (key.startsWith('svc-')) return { authenticated: true, credentials: { service: key.slice(4) } };
        return { authenticated: false };
      },
    });
  },
  async bootstrap({ strapi }) {
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const team = await strapi.entityService.create('api::team.team', { data: { name: 'Blue' } });
    await strapi.db.query('plugin::users-permissions.user').create({
      data: { username: 'ann', email: 'ann@example.com', provider: 'idp', confirmed: true, role: role.id, team: team.id },
    });
  },
};`;

const FILES = {
  'config/plugins.js': `module.exports = { 'users-permissions': { config: { ratelimit: { enabled: false } } } };`,
  'package.json': json({ name: 'me-app-strategy', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'src/api/team/content-types/team/schema.json': json({
    kind: 'collectionType',
    collectionName: 'teams',
    info: { singularName: 'team', pluralName: 'teams', displayName: 'Team' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  }),
  'src/extensions/users-permissions/content-types/user/schema.json': json({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: { team: { type: 'relation', relation: 'manyToOne', target: 'api::team.team' } },
  }),
  'src/index.js': INDEX,
};

describe("/api/users/me for a caller of a project's own auth strategy", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it("answers the user the strategy set on ctx.state.user, read again with the query's populate", async () => {
    const me = await api().get('/api/users/me?populate=team').set(bearer('idp-ann@example.com')).expect(200);
    expect(me.body).to.include({ username: 'ann', email: 'ann@example.com', provider: 'idp' });
    expect(me.body.team).to.include({ name: 'Blue' });
    expect(me.body).to.not.have.property('password');
    const plain = await api().get('/api/users/me').set(bearer('idp-ann@example.com')).expect(200);
    expect(plain.body).to.not.have.property('team');
  });

  it('answers an empty 204 for a user id that names no user, a 401 when the strategy set no user', async () => {
    const ghost = await api().get('/api/users/me').set(bearer('idp-ghost')).expect(204);
    expect(ghost.text).to.equal('');
    const service = await api().get('/api/users/me').set(bearer('svc-backup')).expect(401);
    expect(service.body.error).to.include({ name: 'UnauthorizedError' });
    await api().get('/api/users/me').set(bearer('idp-nobody@example.com')).expect(401);
  });

  it('answers GraphQL me with that user and its role', async () => {
    const res = await api()
      .post('/graphql')
      .set(bearer('idp-ann@example.com'))
      .send({ query: '{ me { id username email role { type } } }' })
      .expect(200);
    expect(res.body.errors).to.equal(undefined);
    expect(res.body.data.me).to.deep.include({
      username: 'ann',
      email: 'ann@example.com',
      role: { type: 'authenticated' },
    });
    const none = await api().post('/graphql').set(bearer('svc-backup')).send({ query: '{ me { id } }' }).expect(200);
    expect(none.body.errors[0].message).to.equal('Authentication requested');
  });
});
