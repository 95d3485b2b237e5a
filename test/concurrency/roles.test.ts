// Parallel changes of users-permissions roles over HTTP, then what is stored checked with a raw
// driver: a role's permissions are the set one request asked for (never a mix of several), and no
// user keeps a deleted role.
import { expect } from 'chai';
import { range, startCluster, statuses, type Cluster } from './helpers.js';

const ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];

/** The permissions body of Strapi's role update: exactly `wanted` of the article controller. */
function articlePermissions(wanted: string[]): Record<string, unknown> {
  const article = Object.fromEntries(ACTIONS.map((a) => [a, { enabled: wanted.includes(a) }]));
  return { 'api::article': { controllers: { article } } };
}

for (const instances of [1, 2]) {
  describe(`concurrent role changes (${instances} service instance${instances > 1 ? 's' : ''} on one database)`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(instances);
    });
    after(() => cluster.close());

    const newRole = async (name: string): Promise<number> => {
      expect((await cluster.post(0, '/api/users-permissions/roles', { name, description: name })).status).to.equal(200);
      const [role] = await cluster.docs('up_roles', { name });
      return role!._id;
    };
    const actionsOf = async (roleId: number): Promise<string> =>
      (await cluster.docs('up_permissions', { role: roleId }))
        .map((p) => String(p.action).split('.').pop())
        .sort()
        .join(',');

    it("parallel replacements of a role's permissions leave the set of one of them", async () => {
      const roleId = await newRole('Editors');
      const sets = [['find', 'findOne'], ['create', 'update'], ['delete'], ['find', 'delete']];
      const asked = sets.map((set) => [...set].sort().join(','));
      for (let round = 0; round < 4; round++) {
        const responses = await Promise.all(
          range(0, 11).map((i) =>
            cluster.put(i, `/api/users-permissions/roles/${roleId}`, {
              permissions: articlePermissions(sets[(i + round) % sets.length]!),
            }),
          ),
        );
        expect(statuses(responses)).to.deep.equal({ 200: 12 });
        expect(asked).to.include(await actionsOf(roleId));
      }
    });

    it('a role deleted while users are given it and its permissions replaced leaves nothing pointing at it', async () => {
      const users: number[] = [];
      for (const i of range(1, 8)) {
        const user = await cluster.post(0, '/api/users', {
          username: `member${i}`,
          email: `member${i}@example.org`,
          password: 'Password123!',
          role: 1,
        });
        expect(user.status, JSON.stringify(user.body)).to.equal(201);
        users.push(user.body.id as number);
      }
      for (let round = 0; round < 3; round++) {
        const roleId = await newRole(`Doomed ${round}`);
        const responses = await Promise.all([
          cluster.del(1, `/api/users-permissions/roles/${roleId}`),
          ...users.map((id, i) => cluster.put(i, `/api/users/${id}`, { role: roleId })),
          ...range(0, 3).map((i) =>
            cluster.put(i, `/api/users-permissions/roles/${roleId}`, { permissions: articlePermissions(['find']) }),
          ),
        ]);
        expect(responses[0]!.status).to.equal(200);
        // a user update that saw the role gone is a 400, a role update a 404
        for (const response of responses.slice(1)) expect([200, 400, 404]).to.include(response.status);
        expect(await cluster.docs('up_roles', { _id: roleId })).to.have.length(0);
        expect(await cluster.docs('up_users', { role: roleId })).to.have.length(0);
        expect(await cluster.docs('up_permissions', { role: roleId })).to.have.length(0);
      }
    });
  });
}
