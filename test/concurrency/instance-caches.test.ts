// Two service instances on one database: a change of a credential made through one is refused by
// the other within one poll of the credentials epoch (src/database/credentials-epoch.ts): API
// tokens and the public role are served from per-instance caches without a command, and every
// change of tokens, roles or permissions moves the shared epoch the caches are checked against. A
// role's permission or a user changed is refused on the very next request (the role's stamp and
// the user are read with each JWT request).
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
  /**
   * The bound on a change reaching the other instance: a cached entry read just before the change
   * would serve 2 s (its longest life); one poll (100 ms) ends it, and polls missed for 1 s turn
   * the cache off, so the bound leaves a margin for a loaded machine and stays below 2 s.
   */
  const WITHIN_MS = 1500;
  /** Asks `i` until it answers `status` (the last fresh read of the credential was at `since`); fails past WITHIN_MS. */
  const untilAnswers = async (
    i: number,
    auth: Record<string, string>,
    status: number,
    since: number,
    path = '/api/categories',
  ) => {
    for (;;) {
      const answered = (await on(i).get(path).set(auth)).status;
      if (answered === status) return;
      expect(Date.now() - since, `still ${answered}`).to.be.below(WITHIN_MS);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** The moment `i` reads (and caches) the credential afresh; expects `status`. */
  const freshRead = async (i: number, auth: Record<string, string>, status = 200, path = '/api/categories') => {
    const at = Date.now();
    expect((await on(i).get(path).set(auth)).status).to.equal(status);
    return at;
  };

  before(async () => {
    cluster = await startCluster(2);
  });
  after(() => cluster.close());

  it('an API token revoked on one instance is refused there at once and by the other within one poll', async () => {
    for (let round = 0; round < 3; round++) {
      const { id, accessKey } = await createApiToken(ctxOf(0), { name: `revoked ${round}`, type: 'read-only' });
      // both instances have the token in their cache
      expect((await readCategories(0, bearer(accessKey))).status).to.equal(200);
      const since = await freshRead(1, bearer(accessKey));
      expect(await revokeApiToken(ctxOf(0), id)).to.equal(true);
      expect((await readCategories(0, bearer(accessKey))).status).to.equal(401);
      await untilAnswers(1, bearer(accessKey), 401, since);
    }
  });

  it('a regenerated key passes on the other instance at once and the old one is refused there within one poll', async () => {
    const { id, accessKey } = await createApiToken(ctxOf(0), { name: 'regenerated', type: 'read-only' });
    const since = await freshRead(1, bearer(accessKey));
    const salt = usersPermissionsRuntime(ctxOf(0))!.secrets.apiTokenSalt;
    const fresh = await regenerateApiToken(ctxOf(0), salt, id);
    expect(fresh).to.be.a('string');
    expect((await readCategories(1, bearer(fresh!))).status).to.equal(200);
    expect((await readCategories(0, bearer(accessKey))).status).to.equal(401);
    await untilAnswers(1, bearer(accessKey), 401, since);
  });

  it("a custom token's action removed on one instance is refused by the other within one poll", async () => {
    const { id, accessKey } = await createApiToken(ctxOf(0), {
      name: 'narrowed',
      type: 'custom',
      actions: ['api::category.category.find', 'api::tag.tag.find'],
    });
    let since = await freshRead(1, bearer(accessKey));
    await setTokenActions(ctxOf(0), id, ['api::tag.tag.find']);
    await untilAnswers(1, bearer(accessKey), 403, since);
    since = await freshRead(1, bearer(accessKey), 200, '/api/tags');
    await setTokenActions(ctxOf(0), id, ['api::tag.tag.find', 'api::category.category.find']);
    await untilAnswers(1, bearer(accessKey), 200, since);
  });

  it("the public role's permission removed through one instance is refused by the other within one poll, and given back the same way", async () => {
    const publicRole = (await cluster.docs('up_roles', { type: 'public' }))[0]!._id;
    const read = await on(0).get(`/api/users-permissions/roles/${publicRole}`).set(cluster.auth);
    expect(read.status).to.equal(200);
    // the role's whole permission tree (a PUT replaces it), with only categories' find switched
    const tree = read.body.role.permissions as Record<
      string,
      { controllers: Record<string, Record<string, { enabled: boolean }>> }
    >;
    const grant = (find: boolean) => {
      tree['api::category']!.controllers.category!.find!.enabled = find;
      return cluster.put(0, `/api/users-permissions/roles/${publicRole}`, { permissions: tree });
    };
    for (let round = 0; round < 2; round++) {
      let since = await freshRead(1, {});
      expect((await grant(false)).status).to.equal(200);
      expect((await readCategories(0, {})).status).to.equal(403);
      await untilAnswers(1, {}, 403, since);
      since = await freshRead(1, {}, 403);
      expect((await grant(true)).status).to.equal(200);
      await untilAnswers(1, {}, 200, since);
    }
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

    it('is refused by the other instance at once when blocked on one, and passes again once unblocked', async () => {
      expect((await readCategories(1, auth)).status).to.equal(200);
      expect((await cluster.put(0, `/api/users/${userId}`, { blocked: true })).status).to.equal(200);
      expect((await readCategories(1, auth)).status).to.equal(401);
      expect((await cluster.put(0, `/api/users/${userId}`, { blocked: false })).status).to.equal(200);
      expect((await readCategories(1, auth)).status).to.equal(200);
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
  /**
   * What `send` costs once what it needs is cached: counted right after the same request. A loaded
   * machine may let the cache lapse in between (an entry serves 2 s at most, and none while the
   * epoch's polls go unanswered for 1 s: CredentialsEpoch), so a count of `send` that had to read
   * again is taken again, up to 5 times; a cache that never serves fails every one.
   */
  const cachedCountFor = async (send: () => Promise<{ status: number }>, cached: string[]): Promise<string[]> => {
    let counted: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      await send();
      counted = await countedFor(send);
      if (counted.join() === cached.join()) break;
    }
    return counted;
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
    expect(await cachedCountFor(asPublic, [])).to.deep.equal([]);
    const { accessKey } = await createApiToken(service.context, { name: 'counted', type: 'read-only' });
    const asToken = () =>
      request(service.app)
        .get('/api/categories')
        .set({ Authorization: `Bearer ${accessKey}` });
    expect(await countedFor(asToken)).to.deep.equal(['strapi_api_tokens.find', 'strapi_api_tokens.update']);
    expect(await cachedCountFor(asToken, [])).to.deep.equal([]);
    // a token's creation moved the credentials epoch: the role's actions are read once more
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate', 'up_permissions.find']);
    expect(await cachedCountFor(asUser, ['up_users.aggregate'])).to.deep.equal(['up_users.aggregate']);
    // the authenticated role changes (its stamp moves): its actions are read once more
    const roleId = (await service.context.models
      .collection('plugin::users-permissions.role')
      .findOne({ type: 'authenticated' }))!._id as unknown as number;
    await grantActions(service.context, roleId, ['api::tag.tag.counted']);
    expect(await countedFor(asUser)).to.deep.equal(['up_users.aggregate', 'up_permissions.find']);
    expect(await cachedCountFor(asUser, ['up_users.aggregate'])).to.deep.equal(['up_users.aggregate']);
  });
});
