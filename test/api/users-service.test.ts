// `strapi.plugin('users-permissions').service('user')` (and `strapi.plugins[...].services.user`) as
// a project's own routes call it: users written through the entity service (validated, password
// hashed, hooks run), read, counted, removed; an unknown method named in its error.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const INDEX = `module.exports = {
  register({ strapi }) {
    const users = () => strapi.plugins['users-permissions'].services.user;
    const route = (method, path, handler) => ({ method, path, handler, config: { auth: false } });
    strapi.server.routes([
      route('POST', '/api/svc/users', async (ctx) => users().add(ctx.request.body)),
      route('GET', '/api/svc/users', async () => ({
        all: await users().fetchAll({ fields: ['username'], sort: 'username' }),
        count: await users().count({ blocked: false }),
      })),
      route('GET', '/api/svc/users/:id', async (ctx) => {
        const user = await strapi.plugin('users-permissions').service('user').fetch(ctx.params.id);
        const me = await users().fetchAuthenticatedUser(ctx.params.id);
        const byToken = await strapi
          .query('plugin::users-permissions.user')
          .findOne({ where: { resetPasswordToken: 'reset-1' }, select: ['username'], orderBy: { resetPasswordToken: 'asc' } });
        return {
          username: user.username,
          role: me.role ? me.role.type : null,
          valid: await users().validatePassword('secret-pass-1', user.password),
          wrong: await users().validatePassword('nope', me.password),
          byToken: byToken && byToken.username,
        };
      }),
      route('PUT', '/api/svc/users/:id', async (ctx) => users().edit(ctx.params.id, ctx.request.body)),
      route('DELETE', '/api/svc/users/:id', async (ctx) => users().remove({ id: Number(ctx.params.id) })),
      route('GET', '/api/svc/jwt/:id', async (ctx) => ({
        jwt: strapi.plugin('users-permissions').service('jwt').issue({ id: Number(ctx.params.id) }),
      })),
      route('GET', '/api/svc/unknown', async () => {
        try {
          return users().sendSomething();
        } catch (err) {
          return { message: err.message };
        }
      }),
    ]);
  },
};
`;

describe("users-permissions' user service for an app's own code", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempApp({ files: { 'src/index.js': INDEX } }) });
  });
  after(() => service.close());

  it('adds, reads, counts, edits and removes users through the entity service', async () => {
    const { body: ann } = await api()
      .post('/api/svc/users')
      .send({ username: 'ann', email: 'ann@example.com', password: 'secret-pass-1', provider: 'local' })
      .expect(200);
    expect(ann).to.include({ username: 'ann', email: 'ann@example.com' });
    expect(ann).to.have.property('role', null);
    await api()
      .post('/api/svc/users')
      .send({ username: 'bob', email: 'bob@example.com', password: 'secret-pass-2', blocked: true })
      .expect(200);

    const { body: list } = await api().get('/api/svc/users').expect(200);
    expect(list.all.map((u: { username: string }) => u.username)).to.deep.equal(['ann', 'bob']);
    expect(list.count).to.equal(1);

    await api().put(`/api/svc/users/${ann.id}`).send({ resetPasswordToken: 'reset-1' }).expect(200);
    // the app's own reads see private attributes (the password hash, tokens), as Strapi's do
    const { body: read } = await api().get(`/api/svc/users/${ann.id}`).expect(200);
    expect(read).to.deep.equal({ username: 'ann', role: null, valid: true, wrong: false, byToken: 'ann' });
    const stored = await service.context.connection
      .collection<{ _id: number; password: string }>('up_users')
      .findOne({ _id: ann.id });
    expect(stored?.password).to.match(/^\$2[ab]\$10\$/);

    const { body: edited } = await api().put(`/api/svc/users/${ann.id}`).send({ username: 'anna' }).expect(200);
    expect(edited).to.include({ id: ann.id, username: 'anna' });

    await api().delete(`/api/svc/users/${ann.id}`).expect(200);
    const { body: after } = await api().get('/api/svc/users').expect(200);
    expect(after.all.map((u: { username: string }) => u.username)).to.deep.equal(['bob']);
  });

  it('keeps private attributes from clients: REST neither answers nor filters on them', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'admin', type: 'full-access' });
    const auth = { Authorization: `Bearer ${accessKey}` };
    const { body } = await api().get('/api/users?filters[resetPasswordToken]=reset-1').set(auth).expect(400);
    expect(body.error.message).to.equal('Invalid parameter resetPasswordToken');
    const sorted = await api().get('/api/users?sort=resetPasswordToken').set(auth).expect(400);
    expect(sorted.body.error.message).to.equal('Invalid parameter resetPasswordToken');
    const { body: users } = await api().get('/api/users').set(auth).expect(200);
    expect(users).to.have.length.greaterThan(0);
    for (const user of users) expect(user).to.not.have.any.keys('password', 'resetPasswordToken', 'confirmationToken');
  });

  it('answers the text fields a user was written without as null (Strapi 4.26)', async () => {
    const { body: cat } = await api()
      .post('/api/svc/users')
      .send({ username: 'cat', email: 'cat@example.com', password: 'secret-pass-3', role: 1 })
      .expect(200);
    const { accessKey } = await createApiToken(service.context, { name: 'nulls', type: 'full-access' });
    const auth = { Authorization: `Bearer ${accessKey}` };
    const expected = { id: cat.id, username: 'cat', email: 'cat@example.com', provider: null };
    const { body: users } = await api().get('/api/users?filters[username]=cat').set(auth).expect(200);
    expect(users).to.have.length(1);
    expect(users[0]).to.include(expected);
    expect((await api().get(`/api/users/${cat.id}`).set(auth).expect(200)).body).to.include(expected);
    const { body: issued } = await api().get(`/api/svc/jwt/${cat.id}`).expect(200);
    const { body: me } = await api()
      .get('/api/users/me')
      .set({ Authorization: `Bearer ${issued.jwt}` })
      .expect(200);
    expect(me).to.include(expected);
    expect(me).to.not.have.any.keys('password', 'confirmationToken', 'resetPasswordToken');
    // Strapi's login looks the user up with the local provider: a user without one cannot log in
    const login = await api().post('/api/auth/local').send({ identifier: 'cat', password: 'secret-pass-3' });
    expect([login.status, login.body.error?.message]).to.deep.equal([400, 'Invalid identifier or password']);
  });

  it('refuses bad data as the entity service does, and changes nothing', async () => {
    const { body } = await api().post('/api/svc/users').send({ username: 'x', email: 'not-an-email' }).expect(400);
    expect(body.error.name).to.equal('ValidationError');
    const { body: list } = await api().get('/api/svc/users').expect(200);
    expect(list.all.map((u: { username: string }) => u.username)).to.not.include('x');
  });

  it('names a method it does not offer', async () => {
    const { body } = await api().get('/api/svc/unknown').expect(200);
    expect(body.message).to.match(
      /^strapi\.plugin\('users-permissions'\)\.service\('user'\)\.sendSomething is not supported by Content Service: it offers add, edit, fetch, fetchAll/,
    );
  });
});
