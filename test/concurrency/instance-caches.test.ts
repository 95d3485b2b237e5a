// Two service instances on one database: a role's permission or a user changed through one is
// refused by the other on its very next request (the role's cached actions are checked against the
// stamp read with the user of each JWT request). API tokens are served from a per-instance cache
// without a command (docs/users-permissions.md, "Caches"): a change is seen at once by the instance
// that made it and by the other once its entry is 2 s old, which these tests bound.
import { expect } from 'chai';
import request from 'supertest';
import { setTokenActions } from '../../src/plugins/users-permissions/api-token-permissions.js';
import { regenerateApiToken } from '../../src/plugins/users-permissions/api-tokens.js';
import { createApiToken, revokeApiToken, usersPermissionsRuntime } from '../../src/plugins/users-permissions/index.js';
import { grantActions } from '../../src/plugins/users-permissions/roles.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { startCluster, type Cluster } from './helpers.js';

describe('caches of two service instances on one database', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const on = (i: number) => request(cluster.services[i]!.app);
  const ctxOf = (i: number) => cluster.services[i]!.context;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const readCategories = (i: number, auth: Record<string, string>) => on(i).get('/api/categories').set(auth);
  /** the token cache's lifetime, and the most another instance may keep serving a changed token */
  const TOKEN_CACHE_MS = 2000;
  /** Polls `i` until it answers `status`; the time it took, failing past the token cache's lifetime (and a margin for a loaded machine). */
  const untilAnswers = async (i: number, auth: Record<string, string>, status: number, path = '/api/categories') => {
    const started = Date.now();
    for (;;) {
      const answered = (await on(i).get(path).set(auth)).status;
      if (answered === status) return Date.now() - started;
      expect(Date.now() - started, `still ${answered}`).to.be.below(TOKEN_CACHE_MS + 3000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  before(async () => {
    cluster = await startCluster(2);
  });
  after(() => cluster.close());

  it('an API token revoked on one instance is refused there at once and by the other within 2 s', async () => {
    const { id, accessKey } = await createApiToken(ctxOf(0), { name: 'revoked', type: 'read-only' });
    // both instances have the token in their cache
    expect([
      (await readCategories(0, bearer(accessKey))).status,
      (await readCategories(1, bearer(accessKey))).status,
    ]).to.deep.equal([200, 200]);
    expect(await revokeApiToken(ctxOf(0), id)).to.equal(true);
    expect((await readCategories(0, bearer(accessKey))).status).to.equal(401);
    await untilAnswers(1, bearer(accessKey), 401);
  });

  it('a regenerated key passes on the other instance at once and the old one is refused there within 2 s', async () => {
    const { id, accessKey } = await createApiToken(ctxOf(0), { name: 'regenerated', type: 'read-only' });
    expect((await readCategories(1, bearer(accessKey))).status).to.equal(200);
    const salt = usersPermissionsRuntime(ctxOf(0))!.secrets.apiTokenSalt;
    const fresh = await regenerateApiToken(ctxOf(0), salt, id);
    expect(fresh).to.be.a('string');
    expect((await readCategories(1, bearer(fresh!))).status).to.equal(200);
    expect((await readCategories(0, bearer(accessKey))).status).to.equal(401);
    await untilAnswers(1, bearer(accessKey), 401);
  });

  it("a custom token's action removed on one instance is refused by the other within 2 s", async () => {
    const { id, accessKey } = await createApiToken(ctxOf(0), {
      name: 'narrowed',
      type: 'custom',
      actions: ['api::category.category.find', 'api::tag.tag.find'],
    });
    expect((await readCategories(1, bearer(accessKey))).status).to.equal(200);
    await setTokenActions(ctxOf(0), id, ['api::tag.tag.find']);
    await untilAnswers(1, bearer(accessKey), 403);
    expect((await on(1).get('/api/tags').set(bearer(accessKey))).status).to.equal(200);
    await setTokenActions(ctxOf(0), id, ['api::tag.tag.find', 'api::category.category.find']);
    await untilAnswers(1, bearer(accessKey), 200);
  });

  describe('a user of a role', () => {
    let roleId: number;
    let userId: number;
    let auth: Record<string, string>;
    const permissions = (find: boolean) => ({
      'api::category': { controllers: { category: { find: { enabled: find } } } },
      'plugin::users-permissions': {
        controllers: { user: { me: { enabled: true } }, auth: { changePassword: { enabled: true } } },
      },
    });
    const grant = (find: boolean) =>
      cluster.put(0, `/api/users-permissions/roles/${roleId}`, { permissions: permissions(find) });
    const me = (i: number) => on(i).get('/api/users/me').set(auth);

    before(async () => {
      const role = await cluster.post(0, '/api/users-permissions/roles', {
        name: 'Cached readers',
        description: 'read categories',
        permissions: permissions(true),
      });
      expect(role.status, JSON.stringify(role.body)).to.equal(200);
      roleId = (await cluster.docs('up_roles', { name: 'Cached readers' }))[0]!._id;
      const user = await cluster.post(0, '/api/users', {
        username: 'cached-reader',
        email: 'cached-reader@example.org',
        password: 'Password123!',
        role: roleId,
        confirmed: true,
      });
      expect(user.status, JSON.stringify(user.body)).to.equal(201);
      userId = user.body.id as number;
      const login = await on(0).post('/api/auth/local').send({ identifier: 'cached-reader', password: 'Password123!' });
      auth = bearer(login.body.jwt as string);
    });

    it("loses a permission removed on one instance on the other's next request, and gets it back the same way", async () => {
      for (let round = 0; round < 3; round++) {
        expect([(await readCategories(0, auth)).status, (await readCategories(1, auth)).status]).to.deep.equal([
          200, 200,
        ]);
        expect((await grant(false)).status).to.equal(200);
        expect([(await readCategories(1, auth)).status, (await readCategories(0, auth)).status]).to.deep.equal([
          403, 403,
        ]);
        expect((await grant(true)).status).to.equal(200);
      }
      // the stamp is storage, never answered
      const populated = await cluster.get(`/api/users/${userId}?populate=role`);
      expect(populated.body.role, JSON.stringify(populated.body))
        .to.include({ id: roleId })
        .and.not.have.property('__grants');
    });

    it('keeps a JWT issued before a password change, as Strapi 4.26 (the JWT holds only the user id)', async () => {
      const changed = await on(0)
        .post('/api/auth/change-password')
        .set(auth)
        .send({ currentPassword: 'Password123!', password: 'Password456!', passwordConfirmation: 'Password456!' });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect((await readCategories(1, auth)).status).to.equal(200);
      expect((await me(1)).body.id).to.equal(userId);
      const login = await on(1).post('/api/auth/local').send({ identifier: 'cached-reader', password: 'Password123!' });
      expect(login.status).to.equal(400);
    });

    it("has only the public role's rights on both instances once its role is deleted on one", async () => {
      expect([(await me(0)).status, (await me(1)).status]).to.deep.equal([200, 200]);
      expect((await cluster.del(0, `/api/users-permissions/roles/${roleId}`)).status).to.equal(200);
      // the public role grants categories but not users/me
      expect([(await me(1)).status, (await me(0)).status]).to.deep.equal([403, 403]);
      expect((await readCategories(1, auth)).status).to.equal(200);
    });

    it('is refused by the other instance at once when deleted on one', async () => {
      expect((await readCategories(1, auth)).status).to.equal(200);
      expect((await cluster.del(0, `/api/users/${userId}`)).status).to.equal(200);
      expect((await readCategories(1, auth)).status).to.equal(401);
    });
  });
});

// What authentication costs per request, counted on the driver: the stamp check rides on reads a
// request made anyway (docs/users-permissions.md).
describe('commands authentication sends per request', function () {
  this.timeout(60_000);
  let service: TestService;
  const sent: string[] = [];
  const AUTH_COLLECTIONS = new Set(['up_users', 'up_roles', 'up_permissions', 'strapi_api_tokens']);
  before(async () => {
    const uri = new URL(freshDatabaseUri());
    uri.searchParams.set('monitorCommands', 'true');
    service = await createTestService({}, uri.toString());
    service.context.connection.getClient().on('commandStarted', (event) => {
      const collection: unknown = event.command[event.commandName];
      if (typeof collection === 'string' && AUTH_COLLECTIONS.has(collection))
        sent.push(`${collection}.${event.commandName}`);
    });
  });
  after(() => service.close());
  const countedFor = async (send: () => Promise<{ status: number }>, status = 200): Promise<string[]> => {
    sent.length = 0;
    expect((await send()).status).to.equal(status);
    return [...sent];
  };

  it('none for a public request or a cached API token, one read of the user (with its role) for a JWT request; the permissions again only once changed', async () => {
    const registered = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'counted', email: 'counted@example.org', password: 'Password123!' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const auth = { Authorization: `Bearer ${registered.body.jwt as string}` };
    const asUser = () => request(service.app).get('/api/categories').set(auth);
    const asPublic = () => request(service.app).get('/api/categories');
    await asUser();
    await asPublic();
    expect(await countedFor(asPublic)).to.deep.equal([]);
    const { accessKey } = await createApiToken(service.context, { name: 'counted', type: 'read-only' });
    const asToken = () =>
      request(service.app)
        .get('/api/categories')
        .set({ Authorization: `Bearer ${accessKey}` });
    expect(await countedFor(asToken)).to.deep.equal(['strapi_api_tokens.find', 'strapi_api_tokens.update']);
    expect(await countedFor(asToken)).to.deep.equal([]);
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate']);
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate']);
    // the authenticated role changes (its stamp moves): its actions are read once more
    const roleId = (await service.context.models
      .collection('plugin::users-permissions.role')
      .findOne({ type: 'authenticated' }))!._id as unknown as number;
    await grantActions(service.context, roleId, ['api::tag.tag.counted']);
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate', 'up_permissions.find']);
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate']);
  });
});
