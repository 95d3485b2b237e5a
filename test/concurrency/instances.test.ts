// Two service instances on one database, as behind a load balancer: what one writes the other
// reads at once (no read cache); ids and link-order keys come from shared counters; a role's
// permission removed or a user blocked on one is refused by both at once (the role's cached
// actions are checked against its stamp, read with the user of each JWT request; more in
// instance-caches.test.ts).
import { expect } from 'chai';
import request from 'supertest';
import { createMany, range, startCluster, statuses, type Cluster } from './helpers.js';

describe('two service instances on one database', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const on = (i: number) => request(cluster.services[i]!.app);
  before(async () => {
    cluster = await startCluster(2);
  });
  after(() => cluster.close());

  it('an entry created or changed on one instance is read on the other at once', async () => {
    for (let round = 0; round < 5; round++) {
      const created = await cluster.post(round, '/api/categories', {
        data: { name: `seen ${round}`, slug: `seen-${round}` },
      });
      expect(created.status).to.equal(200);
      const id = created.body.data.id as number;
      const other = (round + 1) % 2;
      const one = await on(other).get(`/api/categories/${id}`);
      expect(one.status).to.equal(200);
      expect(one.body.data.attributes.name).to.equal(`seen ${round}`);
      expect(
        (await cluster.put(round, `/api/categories/${id}`, { data: { name: `changed ${round}` } })).status,
      ).to.equal(200);
      const list = await on(other).get(`/api/categories?filters[slug][$eq]=seen-${round}`);
      expect(list.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).to.deep.equal([
        `changed ${round}`,
      ]);
    }
  });

  it('parallel creates on both instances take distinct ids, and parallel links distinct order keys', async () => {
    const answers = await Promise.all(
      range(1, 40).map((i) => cluster.post(i, '/api/tags', { data: { name: `counted ${i}`, slug: `counted-${i}` } })),
    );
    expect(statuses(answers)).to.deep.equal({ 200: 40 });
    const ids = answers.map((a) => a.body.data.id as number).sort((a, b) => a - b);
    expect(ids).to.deep.equal(range(ids[0]!, ids[0]! + 39));
    const [author] = await createMany(cluster, 'authors', 1, () => ({ name: 'linked from both' }));
    const articles = await createMany(cluster, 'articles', 30, (i) => ({ title: `keyed ${i}` }));
    const links = await Promise.all(
      articles.map((article, i) => cluster.put(i, `/api/articles/${article}`, { data: { author } })),
    );
    expect(statuses(links)).to.deep.equal({ 200: 30 });
    const keys = (await cluster.docs('articles', { author })).map((doc) => (doc.__order as { author: string }).author);
    expect(keys).to.have.length(30);
    expect(new Set(keys).size).to.equal(30);
  });

  it('a permission removed on one instance is refused by both at once', async () => {
    const role = await cluster.post(0, '/api/users-permissions/roles', {
      name: 'Readers',
      description: 'read categories',
      permissions: { 'api::category': { controllers: { category: { find: { enabled: true } } } } },
    });
    expect(role.status, JSON.stringify(role.body)).to.equal(200);
    const [stored] = await cluster.docs('up_roles', { name: 'Readers' });
    const user = await cluster.post(0, '/api/users', {
      username: 'reader',
      email: 'reader@example.org',
      password: 'Password123!',
      role: stored!._id,
      confirmed: true,
    });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);
    const login = await on(0).post('/api/auth/local').send({ identifier: 'reader', password: 'Password123!' });
    const auth = { Authorization: `Bearer ${login.body.jwt as string}` };
    const read = (i: number) => on(i).get('/api/categories').set(auth);
    // both instances have the role's permissions in their cache
    expect([(await read(0)).status, (await read(1)).status]).to.deep.equal([200, 200]);

    const revoked = await cluster.put(0, `/api/users-permissions/roles/${stored!._id}`, {
      permissions: { 'api::category': { controllers: { category: { find: { enabled: false } } } } },
    });
    expect(revoked.status).to.equal(200);
    expect([(await read(1)).status, (await read(0)).status]).to.deep.equal([403, 403]);

    // blocked on one instance: refused by both at once
    expect((await cluster.put(1, `/api/users/${user.body.id}`, { blocked: true })).status).to.equal(200);
    const refused = await Promise.all([0, 1].map((i) => on(i).get('/api/users/me').set(auth)));
    expect(refused.map((r) => r.status)).to.deep.equal([401, 401]);
  });
});
