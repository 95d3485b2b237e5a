// A lease (src/write/lease.ts) taken inside an app's `strapi.db.transaction` is held until that
// transaction ends: other instances wait for it as for any lease (a write outside transactions, and
// another app's transaction, which met the transaction's lock before: a WriteConflict at once), it
// is given back whether the transaction commits or rolls back, and the transaction's own later work
// takes it again without waiting for itself.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { leaseTiming, withNamedLease } from '../../src/write/index.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

/** What these tests use of each instance's `strapi` object. */
interface AppStrapi {
  db: { transaction<T>(cb: () => Promise<T>): Promise<T> };
  plugin(name: 'users-permissions'): {
    service(name: 'role'): { updateRole(id: number, data: object): Promise<void> };
  };
}

const FILES = {
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
  ),
  'src/index.js': 'module.exports = { register() {}, bootstrap() {} };\n',
};

/** The role's tree granting exactly `enabled` of the page's actions. */
const grants = (...enabled: string[]) => ({
  permissions: {
    'api::page': {
      controllers: {
        page: Object.fromEntries(['find', 'findOne', 'create'].map((a) => [a, { enabled: enabled.includes(a) }])),
      },
    },
  },
});

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('a lease taken inside an app transaction, on two instances', function () {
  this.timeout(30_000);
  const services: TestService[] = [];
  const apps: AppStrapi[] = [];
  let auth: { Authorization: string };
  let roleId: number;
  const saved = { ...leaseTiming };

  before(async () => {
    const appDir = await writeTempProject(FILES);
    const uri = freshDatabaseUri();
    for (let i = 0; i < 2; i++) {
      services.push(await createTestService({ appDir }, uri));
      apps.push(globalThis.strapi as unknown as AppStrapi);
    }
    auth = {
      Authorization: `Bearer ${(await createApiToken(services[0]!.context, { name: 't', type: 'full-access' })).accessKey}`,
    };
    const role = await services[0]!.context.connection.collection('up_roles').findOne({ type: 'authenticated' });
    roleId = role!._id as unknown as number;
  });
  afterEach(() => Object.assign(leaseTiming, saved));
  after(async () => {
    await services[1]?.stop();
    await services[0]?.close();
  });

  const db = () => services[0]!.context.connection;
  const actions = async () =>
    (await db().collection('up_permissions').find({ role: roleId }).toArray()).map((p) => String(p.action)).sort();
  const leases = () => db().collection('content_service_leases').countDocuments({});
  const updateRole = (app: AppStrapi, data: object) =>
    app.plugin('users-permissions').service('role').updateRole(roleId, data);
  /** `work` once A's transaction holds the role's lease, and A's transaction, kept open until `held.open()` */
  const holdOnA = (held: ReturnType<typeof gate>, fail: boolean) => {
    const taken = gate();
    const transaction = apps[0]!.db.transaction(async () => {
      await updateRole(apps[0]!, grants('find'));
      taken.open();
      await held.opened;
      if (fail) throw new Error('rolled back');
    });
    return { taken: taken.opened, transaction };
  };

  for (const outcome of ['commits', 'rolls back'] as const) {
    it(`makes the other instance's writers wait until the transaction ${outcome}, then gives the lease back`, async () => {
      await updateRole(apps[0]!, grants());
      const held = gate();
      const a = holdOnA(held, outcome === 'rolls back');
      await a.taken;
      const settled: string[] = [];
      const rest = request(services[1]!.app)
        .put(`/api/users-permissions/roles/${roleId}`)
        .set(auth)
        .send(grants('findOne'))
        .then((res) => (settled.push('rest'), res));
      const appTransaction = apps[1]!.db
        .transaction(() => updateRole(apps[1]!, grants('create')))
        .then(() => void settled.push('transaction'));
      // both wait on the lease: they find it taken, and retry until it is given back
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).to.deep.equal([]);
      held.open();
      await (outcome === 'commits'
        ? a.transaction
        : a.transaction.then(
            () => expect.fail('committed'),
            () => undefined,
          ));
      const res = await rest;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await appTransaction;
      // one replacement after the other: the last one's set, never a union
      expect([['findOne'], ['create']].map((set) => set.map((a) => `api::page.page.${a}`))).to.deep.include(
        await actions(),
      );
      expect(await leases()).to.equal(0);
    });
  }

  it("answers another instance's writer 409 once it waited its time, changing nothing", async () => {
    Object.assign(leaseTiming, { waitMs: 200 });
    await updateRole(apps[0]!, grants());
    const held = gate();
    const a = holdOnA(held, false);
    await a.taken;
    const res = await request(services[1]!.app)
      .put(`/api/users-permissions/roles/${roleId}`)
      .set(auth)
      .send(grants('findOne'));
    expect(res.status).to.equal(409);
    expect(res.body.error).to.include({ status: 409, name: 'ConflictError' });
    held.open();
    await a.transaction;
    expect(await actions()).to.deep.equal(['api::page.page.find']);
    expect(await leases()).to.equal(0);
  });

  it('lets later work of the same transaction take the lease it holds, one work at a time', async () => {
    Object.assign(leaseTiming, { waitMs: 1_000 });
    await apps[0]!.db.transaction(async () => {
      // the first two at once: one takes it, the other waits for its turn (not for the transaction)
      await Promise.all([updateRole(apps[0]!, grants('find')), updateRole(apps[0]!, grants('findOne'))]);
      await updateRole(apps[0]!, grants('create'));
    });
    expect(await actions()).to.deep.equal(['api::page.page.create']);
    expect(await leases()).to.equal(0);
  });

  it('lets works of one transaction that ask for a lease at the same moment take their turns', async () => {
    Object.assign(leaseTiming, { waitMs: 2_000 });
    const { models } = services[0]!.context;
    const order: string[] = [];
    const work = (n: number) => async () => {
      order.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(`end ${n}`);
    };
    await apps[0]!.db.transaction(() =>
      Promise.all([1, 2, 3].map((n) => withNamedLease(models, 'probe:together', work(n)))),
    );
    expect(order).to.deep.equal(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(await leases()).to.equal(0);
  });
});
