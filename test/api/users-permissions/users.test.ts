import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../../src/plugins/users-permissions/index.js';
import { USER_UID } from '../../../src/content-types/index.js';
import { collectionOf } from '../../../src/plugins/users-permissions/collections.js';
import { createTestService, type TestService } from '../../helpers/server.js';
import { bearer, login, registerSeedUsers } from './helpers.js';

const publicUser = (id: number, username: string, email: string) => ({
  id,
  username,
  email,
  provider: 'local',
  confirmed: true,
  blocked: false,
});

describe('users-permissions: /api/users', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    service = await createTestService();
    await registerSeedUsers(service.app);
    jwt = await login(service.app, 'alice', 'Password123!');
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path).set(bearer(jwt));

  it('POST /api/users creates a user as Strapi 4.26 does (answers recorded from the reference)', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'users-admin', type: 'full-access' });
    const post = (body: object) =>
      request(service.app).post('/api/users').set('Authorization', `Bearer ${accessKey}`).send(body);
    const error = (res: request.Response) => [res.status, res.body.error?.name, res.body.error?.message];
    const before = await request(service.app).get('/api/users/count').set(bearer(jwt));
    expect(error(await post({}))).to.deep.equal([400, 'ValidationError', '4 errors occurred']);
    expect((await post({})).body.error.details.errors.map((e: { path: string[] }) => e.path[0])).to.deep.equal([
      'email',
      'username',
      'password',
      'role',
    ]);
    const body = { username: 'carol', email: 'Carol@Example.com', password: 'Password123!' };
    expect(error(await post(body))).to.deep.equal([400, 'ValidationError', 'role is a required field']);
    expect(error(await post({ ...body, role: { connect: [] } }))).to.deep.equal([
      400,
      'ValidationError',
      'Users must have a role',
    ]);
    expect(error(await post({ ...body, role: 99 }))).to.deep.equal([
      400,
      'ApplicationError',
      '1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist',
    ]);
    expect(error(await post({ ...body, username: 'c', password: 'P', role: 1 }))).to.deep.equal([
      400,
      'ApplicationError',
      '2 errors occurred',
    ]);
    // bcrypt reads 72 bytes: a longer password is refused (docs/strapi-deviations.md)
    expect(error(await post({ ...body, password: 'x'.repeat(73), role: 1 }))).to.deep.equal([
      400,
      'ValidationError',
      'password must be less than 72 bytes',
    ]);
    expect(error(await post({ ...body, username: 'alice', role: 1 }))).to.deep.equal([
      400,
      'ApplicationError',
      'This attribute must be unique',
    ]);
    expect(error(await post({ ...body, email: 'alice@users.example.com', role: 1 }))).to.deep.equal([
      400,
      'ApplicationError',
      'Email already taken',
    ]);
    // the role's shape, as Strapi 4.26's create schema words it (a ValidationError with its path)
    const roleIssue = async (role: unknown) => {
      const res = await post({ ...body, role });
      return [
        res.status,
        res.body.error?.name,
        ...res.body.error.details.errors.map((e: { message: string }) => e.message),
      ];
    };
    for (const [role, message] of [
      [{ connect: [1] }, 'role.connect[0] must be a `object` type, but the final value was: `1`.'],
      [{ connect: [{}] }, 'role.connect[0].id is a required field'],
      [{ connect: 'x' }, 'role.connect must be a `array` type, but the final value was: `"x"`.'],
      [[1], 'role must be a `object` type, but the final value was: `[\n  "1"\n]`.'],
      [true, 'role must be a `strapiID` type, but the final value was: `true`.'],
      [null, 'role must be a `object` type, but the final value was: `null`.'],
    ] as const)
      expect(await roleIssue(role), JSON.stringify(role)).to.deep.equal([400, 'ValidationError', message]);
    expect((await request(service.app).get('/api/users/count').set(bearer(jwt))).body).to.equal(before.body);
    // role 1 is Authenticated, 2 Public (Strapi's order of creation); confirmed and blocked as given
    const created = await post({ ...body, role: { connect: [{ id: 2 }] }, blocked: true });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({
      username: 'carol',
      email: 'carol@example.com',
      provider: 'local',
      confirmed: false,
      blocked: true,
    });
    expect(created.body.role).to.include({ id: 2, name: 'Public', type: 'public' });
    expect(Object.keys(created.body.role)).to.deep.equal([
      'id',
      'name',
      'description',
      'type',
      'createdAt',
      'updatedAt',
    ]);
    const denied = await request(service.app)
      .post('/api/users')
      .set(bearer(jwt))
      .send({ ...body, role: 1 });
    expect(denied.status).to.equal(403);
    const removed = await request(service.app)
      .delete(`/api/users/${created.body.id}`)
      .set('Authorization', `Bearer ${accessKey}`);
    expect(removed.status).to.equal(200);
  });

  it('plain answers list id first, as Strapi (recorded: /api/users/me?fields[0]=username)', async () => {
    const me = await get('/api/users/me?fields[0]=username');
    expect(JSON.stringify(me.body)).to.equal(JSON.stringify({ id: me.body.id, username: 'alice' }));
    const list = await get('/api/users?fields[0]=username&sort=id');
    expect(Object.keys(list.body[0])).to.deep.equal(['id', 'username']);
  });

  it('a populate of the role the caller may not read is left out, whatever it asks (Strapi 4.26)', async () => {
    for (const query of ['populate=role', 'populate[role][fields][0]=name', 'populate[role][populate]=*']) {
      const me = await get(`/api/users/me?fields[0]=username&${query}`);
      expect(me.status, query).to.equal(200);
      expect(me.body, query).to.deep.equal({ id: me.body.id, username: 'alice' });
    }
  });

  it('GET /api/users without auth is 403', async () => {
    const res = await request(service.app).get('/api/users');
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
    });
  });

  it('answers a bare array; filters and sort apply, pagination[...] is ignored', async () => {
    const res = await get(
      '/api/users?filters[email][$endsWith]=%40users.example.com&sort=username%3Adesc&pagination[limit]=2',
    );
    expect(res.status).to.equal(200);
    expect(res.body).to.be.an('array').with.length(3);
    expect(res.body.map((u: { id: number }) => u.id)).to.deep.equal([2, 1, 3]);
    expect(res.body[0]).to.include(publicUser(2, 'bob', 'bob@users.example.com'));
    expect(Object.keys(res.body[0]).sort()).to.deep.equal([
      'blocked',
      'confirmed',
      'createdAt',
      'email',
      'id',
      'provider',
      'updatedAt',
      'username',
    ]);
  });

  it('takes top-level start and limit', async () => {
    const res = await get('/api/users?filters[email][$endsWith]=%40users.example.com&sort=id&start=1&limit=1');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([
      {
        ...publicUser(2, 'bob', 'bob@users.example.com'),
        createdAt: res.body[0].createdAt,
        updatedAt: res.body[0].updatedAt,
      },
    ]);
  });

  it('reads start and limit as numbers as Strapi 4.26 does (2.0, 1e0, 0x1, +1)', async () => {
    const names = async (query: string) =>
      ((await get(`/api/users?sort=id&fields[0]=username&${query}`)).body as { username: string }[]).map(
        (u) => u.username,
      );
    const window = await names('start=1&limit=2');
    expect(window).to.have.length(2);
    for (const query of ['start=1.0&limit=2.0', 'start=1e0&limit=0x2', 'start=%2B1&limit=%202'])
      expect(await names(query), query).to.deep.equal(window);
  });

  it('refuses bad start/limit and private fields', async () => {
    for (const query of ['start=abc', 'start=1.5', 'start=-1', 'limit=-2', 'limit=2abc', 'limit=1e400'])
      expect((await get(`/api/users?${query}`)).status, query).to.equal(400);
    expect((await get('/api/users?fields[0]=password')).status).to.equal(400);
    expect((await get('/api/users?populate=password')).status).to.equal(400);
  });

  it('limit -1 or 0 lists every user; page and pageSize are ignored (Strapi 4.26)', async () => {
    const all = ((await get('/api/users?fields[0]=username')).body as { username: string }[]).map((u) => u.username);
    for (const query of ['limit=-1', 'limit=0', 'page=2&pageSize=1']) {
      const res = await get(`/api/users?${query}&fields[0]=username`);
      expect([res.status, (res.body as { username: string }[]).map((u) => u.username)], query).to.deep.equal([
        200,
        all,
      ]);
    }
  });

  it('/users/count names the attribute a bad filter, sort or fields names, as the list does (Strapi 4.26)', async () => {
    for (const [query, message] of [
      ['filters[nope]=1', 'Invalid parameter nope'],
      ['filters[password][$null]=false', 'Invalid parameter password'],
      // filters, then sort, then fields are checked; names that pass are Strapi's 500 (a column), a 400 here
      ['sort=nope1&fields=nope2', 'Invalid parameter nope1'],
      ['fields=nope2&filters[nope3]=1', 'Invalid parameter nope3'],
      ['fields[0]=password', 'Invalid parameter password'],
      ['sort=password', 'Invalid parameter password'],
      ['fields=createdAt,confirmed', 'Invalid parameter createdAt,confirmed'],
      ['filters[username]=alice&fields=nope', 'Invalid parameter nope'],
      ['fields=username&sort=nope', 'Invalid parameter nope'],
      ['filters[username]=alice&sort=username', 'Invalid parameter filters'],
      ['sort=username&fields=username', 'Invalid parameter sort'],
      ['fields[0]=username', 'Invalid parameter fields'],
      ['populate=role', 'Invalid parameter populate'],
    ]) {
      const res = await get(`/api/users/count?${query}`);
      expect([res.status, res.body.error?.message], query).to.deep.equal([400, message]);
    }
  });

  for (const query of [
    'filters[password][$startsWith]=$2',
    'filters[password][$notNull]=true',
    'filters[resetPasswordToken][$notNull]=true',
    'filters[confirmationToken][$null]=true',
    'filters[$or][0][password][$startsWith]=$2&filters[$or][1][username][$eq]=alice',
    'filters[$not][password][$startsWith]=$2',
    'filters[$and][0][$or][0][password][$contains]=a',
    'sort=password',
    'sort[0]=resetPasswordToken:desc',
  ]) {
    it(`refuses a private attribute: ${query} (400, never results)`, async () => {
      const res = await get(`/api/users?${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.data).to.equal(null);
      expect(res.body.error.status).to.equal(400);
    });
  }

  it('GET /api/users/count counts; filters[...] is a 400 (Strapi: 500)', async () => {
    const count = await get('/api/users/count');
    expect(count.status).to.equal(200);
    expect(count.body).to.equal(3);
    expect((await get('/api/users/count?username=bob')).body).to.equal(1);
    const bad = await get('/api/users/count?filters[email][$endsWith]=%40users.example.com');
    expect(bad.status).to.equal(400);
    expect(bad.body.data).to.equal(null);
    expect((await get('/api/users/count?password=x')).status).to.equal(400);
  });

  it("GET /api/users/count reads its query as a where, operators and $or included (Strapi 4.26's counts)", async () => {
    for (const [query, count] of [
      ['username[$in][0]=alice&username[$in][1]=bob', 2],
      ['username[$containsi]=AL', 1],
      ['$or[0][username]=alice&$or[1][username]=bob', 2],
      ['$and[0][blocked]=false', 3],
      ['username[$eq]=alice&confirmed=true', 1],
      ['username=alice&username=bob', 2],
      ['id[$gt]=1', 2],
      ['id=2', 1],
      ['confirmed=1', 3],
      ['createdAt[$gt]=2020-01-01', 3],
      ['email=ALICE@users.example.com', 0],
      ['email=alice@users.example.com', 1],
    ] as const) {
      const res = await get(`/api/users/count?${query}`);
      expect([res.status, res.body], query).to.deep.equal([200, count]);
    }
    for (const query of ['username[$foo]=x', 'sort=username', 'password[$notNull]=true', 'role[type]=public']) {
      const res = await get(`/api/users/count?${query}`);
      expect([res.status, res.body.error?.name], query).to.deep.equal([400, 'ValidationError']);
    }
  });

  it('GET /api/users/:id answers one user, 404 otherwise', async () => {
    const res = await get('/api/users/3');
    expect(res.status).to.equal(200);
    expect(res.body).to.include(publicUser(3, 'Carol_X', 'carol@users.example.com'));
    expect((await get('/api/users/999')).status).to.equal(404);
    expect((await get('/api/users/abc')).status).to.equal(404);
  });

  describe('update and delete', () => {
    let admin: TestService;
    let adminJwt: string;
    before(async () => {
      admin = await createTestService({
        config: {
          permissions: {
            authenticated: [
              'plugin::users-permissions.user.update',
              'plugin::users-permissions.user.destroy',
              'plugin::users-permissions.user.findOne',
            ],
          },
        },
      });
      await registerSeedUsers(admin.app);
      adminJwt = await login(admin.app, 'alice', 'Password123!');
    });
    after(() => admin.close());

    it('PUT /api/users/:id needs the permission', async () => {
      const res = await request(service.app).put('/api/users/2').set(bearer(jwt)).send({ username: 'bobby' });
      expect(res.status).to.equal(403);
    });

    it('PUT takes username, email, password, role, confirmed and blocked (as Strapi 4.26); never provider or tokens', async () => {
      const put = (body: object) => request(admin.app).put('/api/users/2').set(bearer(adminJwt)).send(body);
      const res = await put({
        username: 'bobby',
        role: 2,
        blocked: true,
        confirmed: false,
        provider: 'github',
        resetPasswordToken: 'x',
        password: 'newpass1',
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: 2, username: 'bobby', blocked: true, confirmed: false, provider: 'local' });
      expect(res.body).to.not.have.any.keys('password', 'resetPasswordToken', 'role');
      const stored = await collectionOf(admin.context, USER_UID).findOne({ _id: 2 });
      expect([stored?.role, stored?.resetPasswordToken ?? null]).to.deep.equal([2, null]);
      // a blocked user cannot log in; unblocked again, the new password works
      expect((await put({ blocked: false, role: { connect: [{ id: 1 }], disconnect: [] } })).status).to.equal(200);
      await login(admin.app, 'bobby', 'newpass1');
    });

    it("PUT checks role, confirmed and blocked with Strapi 4.26's answers, changing nothing", async () => {
      const put = (body: object) => request(admin.app).put('/api/users/2').set(bearer(adminJwt)).send(body);
      const error = (res: request.Response) => [res.status, res.body.error?.message, res.body.error?.details.errors];
      const one = (path: string[], message: string) => [400, message, [{ path, message, name: 'ValidationError' }]];
      expect(error(await put({ role: 999 }))).to.deep.equal(
        one([], '1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist'),
      );
      expect(error(await put({ blocked: 'maybe' }))).to.deep.equal(
        one(['blocked'], 'blocked must be a `boolean` type, but the final value was: `"maybe"`.'),
      );
      expect(error(await put({ role: null }))).to.deep.equal(
        one(['role'], 'role must be a `object` type, but the final value was: `null`.'),
      );
      expect(error(await put({ role: { connect: [{ id: 2 }] } }))).to.deep.equal(
        one(['role', 'disconnect'], 'role.disconnect is a required field'),
      );
      expect(error(await put({ role: { connect: [], disconnect: [{ id: 1 }] } }))).to.deep.equal(
        one(['role', 'disconnect'], 'Cannot remove role'),
      );
      // recorded from Strapi 4.26: each connect item is an object with an id, yup's issues disconnect first
      const issues = (res: request.Response) =>
        res.body.error?.details.errors.map((e: { path: string[]; message: string }) => [e.path.join('.'), e.message]);
      expect(issues(await put({ role: { connect: [1] } }))).to.deep.equal([
        ['role.disconnect', 'role.disconnect is a required field'],
        ['role.connect.0', 'role.connect[0] must be a `object` type, but the final value was: `1`.'],
      ]);
      expect(issues(await put({ role: { connect: [{}], disconnect: [] } }))).to.deep.equal([
        ['role.connect.0.id', 'role.connect[0].id is a required field'],
      ]);
      expect(issues(await put({ role: { connect: 'x', disconnect: [] } }))).to.deep.equal([
        ['role.connect', 'role.connect must be a `array` type, but the final value was: `"x"`.'],
      ]);
      expect(error(await put({ role: [1] }))).to.deep.equal(
        one(['role'], 'role must be a `object` type, but the final value was: `[\n  "1"\n]`.'),
      );
      expect(error(await put({ role: true }))).to.deep.equal(
        one(['role'], 'role must be a `strapiID` type, but the final value was: `true`.'),
      );
      for (const name of ['username', 'email', 'password'])
        expect(error(await put({ [name]: null })), name).to.deep.equal(
          one([name], `${name} must be a \`string\` type, but the final value was: \`null\`.`),
        );
      const stored = await collectionOf(admin.context, USER_UID).findOne({ _id: 2 });
      expect([stored?.role, stored?.blocked, stored?.username]).to.deep.equal([1, false, 'bobby']);
    });

    it('PUT refuses a taken username and a bad e-mail', async () => {
      expect(
        (await request(admin.app).put('/api/users/2').set(bearer(adminJwt)).send({ username: 'alice' })).status,
      ).to.equal(400);
      expect(
        (await request(admin.app).put('/api/users/2').set(bearer(adminJwt)).send({ email: 'bad' })).status,
      ).to.equal(400);
      expect(
        (await request(admin.app).put('/api/users/999').set(bearer(adminJwt)).send({ username: 'zed' })).status,
      ).to.equal(404);
      // recorded from the reference Strapi 4.26.2
      const empty = await request(admin.app).put('/api/users/2').set(bearer(adminJwt)).send({ username: '' });
      expect([empty.status, empty.body.error.message]).to.deep.equal([400, 'username must be at least 1 characters']);
    });

    it('PUT answers the role to a caller who may read roles', async () => {
      const { accessKey } = await createApiToken(admin.context, { name: 'put-users', type: 'full-access' });
      const res = await request(admin.app)
        .put('/api/users/2')
        .set('Authorization', `Bearer ${accessKey}`)
        .send({ email: 'Bobby@Example.com' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.email).to.equal('bobby@example.com');
      expect(res.body.role).to.include({ id: 1, name: 'Authenticated', type: 'authenticated' });
    });

    it('DELETE /api/users/:id answers the deleted user; its JWT stops working', async () => {
      const carolJwt = await login(admin.app, 'Carol_X', 'Secret%&*456');
      const res = await request(admin.app).delete('/api/users/3').set(bearer(adminJwt));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: 3, username: 'Carol_X' });
      expect((await request(admin.app).get('/api/users/3').set(bearer(adminJwt))).status).to.equal(404);
      expect((await request(admin.app).get('/api/users/me').set(bearer(carolJwt))).status).to.equal(401);
      expect((await request(admin.app).delete('/api/users/3').set(bearer(adminJwt))).status).to.equal(404);
    });
  });
});
