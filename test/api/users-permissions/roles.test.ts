import { expect } from 'chai';
import request from 'supertest';
import { ROLE_UID, USER_UID } from '../../../src/content-types/index.js';
import { createTestService, type TestService } from '../../helpers/server.js';
import { bearer, login, registerSeedUsers } from './helpers.js';
import { collectionOf } from '../../../src/plugins/users-permissions/collections.js';
import { createApiToken } from '../../../src/plugins/users-permissions/index.js';

const ROLE_ACTIONS = ['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'].map(
  (a) => `plugin::users-permissions.role.${a}`,
);

describe('users-permissions: roles and permissions', () => {
  let service: TestService;
  let adminJwt: string;
  before(async () => {
    service = await createTestService({
      config: {
        permissions: { authenticated: [...ROLE_ACTIONS, 'plugin::users-permissions.user.me', 'api::note.note.find'] },
      },
    });
    await registerSeedUsers(service.app);
    adminJwt = await login(service.app, 'alice', 'Password123!');
  });
  after(() => service.close());

  it('GET /api/users-permissions/permissions: every action served, none enabled (Strapi 4.26 shape)', async () => {
    expect(
      (await request(service.app).get('/api/users-permissions/permissions').set(bearer(adminJwt))).status,
    ).to.equal(403);
    const { accessKey } = await createApiToken(service.context, { name: 'catalogue', type: 'full-access' });
    const res = await request(service.app)
      .get('/api/users-permissions/permissions')
      .set('Authorization', `Bearer ${accessKey}`);
    expect(res.status).to.equal(200);
    const tree = res.body.permissions as Record<string, { controllers: Record<string, Record<string, unknown>> }>;
    const actions = (type: string, controller: string) => Object.keys(tree[type]?.controllers[controller] ?? {});
    // recorded from the reference Strapi 4.26.2 on the fixture
    expect(actions('api::article', 'article')).to.deep.equal([
      'find',
      'findOne',
      'create',
      'update',
      'delete',
      'createLocalization',
    ]);
    expect(actions('api::homepage', 'homepage')).to.deep.equal(['find', 'update', 'delete']);
    expect(actions('plugin::upload', 'content-api')).to.deep.equal(['find', 'findOne', 'destroy', 'upload']);
    expect(actions('plugin::users-permissions', 'permissions')).to.deep.equal(['getPermissions']);
    expect([...actions('plugin::users-permissions', 'auth')].sort()).to.deep.equal(
      [
        'callback',
        'changePassword',
        'resetPassword',
        'connect',
        'forgotPassword',
        'register',
        'emailConfirmation',
        'sendEmailConfirmation',
      ].sort(),
    );
    expect(actions('plugin::i18n', 'locales')).to.deep.equal(['listLocales']);
    expect(tree['api::note']?.controllers.note?.find).to.deep.equal({ enabled: false, policy: '' });
    expect(Object.keys(tree).filter((type) => type.startsWith('api::'))).to.deep.equal(
      [...Object.keys(tree).filter((type) => type.startsWith('api::'))].sort(),
    );
  });

  it('seeds public and authenticated, with the config permissions added', async () => {
    const res = await request(service.app).get('/api/users-permissions/roles').set(bearer(adminJwt));
    expect(res.status).to.equal(200);
    const types = res.body.roles.map((r: { type: string }) => r.type);
    expect(types).to.include.members(['public', 'authenticated']);
    const authenticated = res.body.roles.find((r: { type: string }) => r.type === 'authenticated');
    expect(authenticated).to.include({ name: 'Authenticated', nb_users: 3 });
    const one = await request(service.app)
      .get(`/api/users-permissions/roles/${authenticated.id}`)
      .set(bearer(adminJwt));
    expect(one.status).to.equal(200);
    expect(one.body.role.permissions['api::note'].controllers.note.find).to.deep.equal({ enabled: true, policy: '' });
    expect(one.body.role.permissions['plugin::users-permissions'].controllers.auth.changePassword.enabled).to.equal(
      true,
    );
    // every action of the catalogue is listed, the public role's own disabled (as Strapi 4.26 lists them)
    const publicRole = res.body.roles.find((r: { type: string }) => r.type === 'public');
    const listed = await request(service.app)
      .get(`/api/users-permissions/roles/${publicRole.id}`)
      .set(bearer(adminJwt));
    expect(listed.body.role.permissions['api::article'].controllers.article).to.deep.equal({
      find: { enabled: true, policy: '' },
      findOne: { enabled: true, policy: '' },
      create: { enabled: false, policy: '' },
      update: { enabled: false, policy: '' },
      delete: { enabled: false, policy: '' },
      createLocalization: { enabled: false, policy: '' },
    });
    expect(listed.body.role.permissions['plugin::users-permissions'].controllers.auth.changePassword).to.deep.equal({
      enabled: false,
      policy: '',
    });
  });

  it('public callers may not manage roles', async () => {
    expect((await request(service.app).get('/api/users-permissions/roles')).status).to.equal(403);
    expect((await request(service.app).post('/api/users-permissions/roles').send({ name: 'Hacker' })).status).to.equal(
      403,
    );
  });

  it('public role: allowed actions pass, others are 403', async () => {
    expect((await request(service.app).get('/api/articles?fields[0]=title')).status).to.equal(200);
    const denied = await request(service.app)
      .post('/api/notes')
      .send({ data: { title: 'x' } });
    expect(denied.status).to.equal(403);
    expect(denied.body).to.deep.equal({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
    });
  });

  it('authenticated role: denied actions are 403', async () => {
    const res = await request(service.app)
      .post('/api/notes')
      .set(bearer(adminJwt))
      .send({ data: { title: 'x' } });
    expect(res.status).to.equal(403);
  });

  it('a custom role grants exactly its permissions; updates apply at once; deleting moves its users to the public role', async () => {
    const created = await request(service.app)
      .post('/api/users-permissions/roles')
      .set(bearer(adminJwt))
      .send({
        name: 'Counter',
        description: 'may count users',
        permissions: {
          'plugin::users-permissions': {
            controllers: { user: { count: { enabled: true }, find: { enabled: false } } },
          },
        },
      });
    expect(created.status).to.equal(200);
    expect(created.body).to.deep.equal({ ok: true });
    const role = await collectionOf(service.context, ROLE_UID).findOne({ type: 'counter' });
    expect(role).to.not.equal(null);
    await collectionOf(service.context, USER_UID).updateOne({ username: 'bob' }, { $set: { role: role?._id } });
    const bobJwt = await login(service.app, 'bob', 'Password123!');
    expect((await request(service.app).get('/api/users/count').set(bearer(bobJwt))).status).to.equal(200);
    expect((await request(service.app).get('/api/users').set(bearer(bobJwt))).status).to.equal(403);
    expect((await request(service.app).get('/api/users/me').set(bearer(bobJwt))).status).to.equal(403);

    const updated = await request(service.app)
      .put(`/api/users-permissions/roles/${role?._id}`)
      .set(bearer(adminJwt))
      .send({ permissions: ['plugin::users-permissions.user.find'] });
    expect(updated.status).to.equal(200);
    expect((await request(service.app).get('/api/users').set(bearer(bobJwt))).status).to.equal(200);
    expect((await request(service.app).get('/api/users/count').set(bearer(bobJwt))).status).to.equal(403);

    const removed = await request(service.app)
      .delete(`/api/users-permissions/roles/${role?._id}`)
      .set(bearer(adminJwt));
    expect(removed.status).to.equal(200);
    // Strapi 4.26 moves the role's users to the public role (its controller's deleteRole(id, publicRoleID))
    const publicRole = await collectionOf(service.context, ROLE_UID).findOne({ type: 'public' });
    const bob = await collectionOf(service.context, USER_UID).findOne({ username: 'bob' });
    expect(bob?.role).to.equal(publicRole?._id);
    expect((await request(service.app).get('/api/users/me').set(bearer(bobJwt))).status).to.equal(403);
    const publicDelete = await request(service.app)
      .delete(`/api/users-permissions/roles/${publicRole?._id}`)
      .set(bearer(adminJwt));
    expect([publicDelete.status, publicDelete.body.error?.message]).to.deep.equal([400, 'Cannot delete public role']);
  });

  it("names a new role's type as Strapi 4.26 does (lodash snakeCase of the deburred, lower-cased name; a given type as is)", async () => {
    const create = (body: object) =>
      request(service.app).post('/api/users-permissions/roles').set(bearer(adminJwt)).send(body);
    for (const [body, type] of [
      [{ name: 'Éditeurs en Chef' }, 'editeurs_en_chef'],
      [{ name: 'Role-X.v2 sw27' }, 'role_x_v_2_sw_27'],
      [{ name: 'sw27camelCaseName' }, 'sw_27_camelcasename'],
      [{ name: 'sw27 typed', type: 'Sw27 Typed' }, 'Sw27 Typed'],
    ] as const) {
      expect((await create(body)).body, JSON.stringify(body)).to.deep.equal({ ok: true });
      const roles = await request(service.app).get('/api/users-permissions/roles').set(bearer(adminJwt));
      const role = roles.body.roles.find((r: { name: string }) => r.name === body.name);
      expect(role?.type, JSON.stringify(body)).to.equal(type);
      await request(service.app).delete(`/api/users-permissions/roles/${role.id}`).set(bearer(adminJwt));
    }
  });

  it('PUT /roles/:id empties a description as Strapi 4.26 does; a name sent is checked as on create', async () => {
    await request(service.app)
      .post('/api/users-permissions/roles')
      .set(bearer(adminJwt))
      .send({ name: 'Renamed', description: 'd' });
    const role = await collectionOf(service.context, ROLE_UID).findOne({ type: 'renamed' });
    const put = (body: object) =>
      request(service.app).put(`/api/users-permissions/roles/${role?._id}`).set(bearer(adminJwt)).send(body);
    const stored = async () => {
      const res = await request(service.app).get(`/api/users-permissions/roles/${role?._id}`).set(bearer(adminJwt));
      return [res.body.role.name, res.body.role.description];
    };
    for (const description of ['', null]) {
      expect((await put({ description })).body).to.deep.equal({ ok: true });
      expect(await stored()).to.deep.equal(['Renamed', description]);
    }
    for (const name of [null, '', 'ab'])
      expect((await put({ name, description: 'kept?' })).status, String(name)).to.equal(400);
    expect(await stored()).to.deep.equal(['Renamed', null]);
    const graphql = await request(service.app)
      .post('/graphql')
      .set(bearer(adminJwt))
      .send({ query: `mutation { updateUsersPermissionsRole(id: ${role?._id}, data: { name: "" }) { ok } }` });
    expect(graphql.body.errors?.[0]?.extensions?.error?.name).to.equal('ValidationError');
    expect(await stored()).to.deep.equal(['Renamed', null]);
    await request(service.app).delete(`/api/users-permissions/roles/${role?._id}`).set(bearer(adminJwt));
  });

  it('refuses bad role input and built-in role deletion', async () => {
    // Strapi 4.26's role controller refuses an empty body before its schema
    const publicId = (await collectionOf(service.context, ROLE_UID).findOne({ type: 'public' }))?._id;
    for (const [method, path] of [
      ['post', '/api/users-permissions/roles'],
      ['put', `/api/users-permissions/roles/${publicId}`],
    ] as const)
      for (const body of [{}, []]) {
        const res = await request(service.app)[method](path).set(bearer(adminJwt)).send(body);
        expect([res.status, res.body.error?.message], `${method} ${JSON.stringify(body)}`).to.deep.equal([
          400,
          'Request body cannot be empty',
        ]);
      }
    expect(
      (
        await request(service.app)
          .post('/api/users-permissions/roles')
          .set(bearer(adminJwt))
          .send({ name: 'Bad', permissions: ['not an action'] })
      ).status,
    ).to.equal(400);
    expect(
      (await request(service.app).post('/api/users-permissions/roles').set(bearer(adminJwt)).send({ name: 'Public' }))
        .status,
    ).to.equal(400);
    const publicRole = await collectionOf(service.context, ROLE_UID).findOne({ type: 'public' });
    expect(
      (await request(service.app).delete(`/api/users-permissions/roles/${publicRole?._id}`).set(bearer(adminJwt)))
        .status,
    ).to.equal(400);
    expect((await request(service.app).get('/api/users-permissions/roles/999').set(bearer(adminJwt))).status).to.equal(
      404,
    );
  });
});
