// Each change of roles or permissions moves the credentials epoch once (the role functions tell it,
// their callers nothing more), and a change whose epoch move fails is still answered as done: it
// happened, the instance that made it refuses the old grant at once, the others once their cached
// entry ages out (2 s) or their polls, which cannot read an epoch either, turn their caches off;
// the failure is logged. The move is made to fail for real: the epoch's counter document holds a
// value `$inc` refuses.
import { expect } from 'chai';
import type { Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { runningStrapi, type StrapiApp } from '../../src/lifecycle/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, type LogLine } from '../helpers/log-capture.js';
import { createTestService, freshDatabaseUri, rawClient, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

const ERROR = 50;
const ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];

/** The permissions body of Strapi's role update: exactly `wanted` of the article controller. */
function articlePermissions(wanted: string[]): Record<string, unknown> {
  const article = Object.fromEntries(ACTIONS.map((a) => [a, { enabled: wanted.includes(a) }]));
  return { 'api::article': { controllers: { article } } };
}

describe('credentials epoch: one move per change, and a change whose move fails', function () {
  this.timeout(30_000);
  const services: TestService[] = [];
  const logs: LogLine[][] = [];
  let raw: MongoClient;
  let db: Db;
  let auth: { Authorization: string };

  before(async () => {
    const uri = freshDatabaseUri();
    for (let i = 0; i < 2; i++) {
      const { logger, lines } = capturingLogger();
      logs.push(lines);
      services.push(await createTestService({ logger }, uri));
    }
    const { accessKey } = await createApiToken(services[0]!.context, { name: 'bumps', type: 'full-access' });
    auth = { Authorization: `Bearer ${accessKey}` };
    raw = await rawClient();
    db = raw.db(services[0]!.context.connection.db?.databaseName);
  });
  after(async () => {
    await raw.close();
    await services[1]?.stop();
    await services[0]?.close();
  });

  const epoch = async (): Promise<unknown> =>
    (await db.collection<{ _id: string; seq?: unknown }>('counters').findOne({ _id: 'credentials-epoch' }))?.seq;
  /** How far `change` moved the epoch. */
  const moves = async (change: () => Promise<{ status: number }>): Promise<number> => {
    const before = Number(await epoch());
    const res = await change();
    expect(res.status).to.equal(200);
    return Number(await epoch()) - before;
  };
  const roles = '/api/users-permissions/roles';

  it('a role created with permissions, its permissions replaced, its name changed and its deletion: one move each, none for what no cache holds', async () => {
    const created = await moves(() =>
      request(services[0]!.app)
        .post(roles)
        .set(auth)
        .send({ name: 'Counted', description: 'x', permissions: articlePermissions(['find']) }),
    );
    expect(created).to.equal(1);
    const [role] = await db.collection<{ _id: number }>('up_roles').find({ name: 'Counted' }).toArray();
    const path = `${roles}/${role!._id}`;
    // drops find, adds create and update
    const replaced = await moves(() =>
      request(services[0]!.app)
        .put(path)
        .set(auth)
        .send({ permissions: articlePermissions(['create', 'update']) }),
    );
    expect(replaced).to.equal(1);
    const unchanged = await moves(() =>
      request(services[0]!.app)
        .put(path)
        .set(auth)
        .send({ permissions: articlePermissions(['create', 'update']) }),
    );
    expect(unchanged).to.equal(0);
    const renamed = await moves(() => request(services[0]!.app).put(path).set(auth).send({ name: 'Renamed' }));
    expect(renamed).to.equal(0);
    const withoutPermissions = await moves(() =>
      request(services[0]!.app).post(roles).set(auth).send({ name: 'Empty', description: 'x' }),
    );
    expect(withoutPermissions).to.equal(0);
    expect(await moves(() => request(services[0]!.app).delete(path).set(auth))).to.equal(1);
  });

  it('a permission dropped while the epoch cannot move: 200, refused here at once, on the other instance within 2 s, logged', async () => {
    const publicRole = `${roles}/2`;
    const grant = await request(services[0]!.app)
      .put(publicRole)
      .set(auth)
      .send({ permissions: articlePermissions(['find']) });
    expect(grant.status).to.equal(200);
    for (const service of services) expect((await request(service.app).get('/api/articles')).status).to.equal(200);
    const seq = await epoch();
    await db
      .collection<{ _id: string; seq: unknown }>('counters')
      .updateOne({ _id: 'credentials-epoch' }, { $set: { seq: 'not a number' } });
    try {
      const logged = logs[0]!.length;
      const drop = await request(services[0]!.app)
        .put(publicRole)
        .set(auth)
        .send({ permissions: articlePermissions([]) });
      const dropped = Date.now();
      expect(drop.status, JSON.stringify(drop.body)).to.equal(200);
      expect(await db.collection('up_permissions').countDocuments({ role: 2, action: /^api::article/ })).to.equal(0);
      expect((await request(services[0]!.app).get('/api/articles')).status).to.equal(403);
      const errors = logs[0]!.slice(logged).filter((line) => line.level === ERROR);
      expect(errors.map((line) => line.msg)).to.deep.equal([
        'the credentials epoch could not be moved after a change of tokens, roles or permissions: other instances may serve what they cached for up to 2000 ms',
      ]);
      // the other instance's cached grant ages out: 2 s at most after it was read, before the drop
      for (;;) {
        const status = (await request(services[1]!.app).get('/api/articles')).status;
        if (status === 403) break;
        expect(status).to.equal(200);
        expect(Date.now() - dropped, 'still served').to.be.below(2500);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await db
        .collection<{ _id: string; seq: unknown }>('counters')
        .updateOne({ _id: 'credentials-epoch' }, { $set: { seq } });
    }
  });
});

describe("credentials epoch: the app's role and token services move it once per change", () => {
  let service: TestService;
  let strapi: StrapiApp;
  before(async () => {
    const appDir = await writeTempProject({
      'src/index.js': 'module.exports = {};',
      'src/api/page/content-types/page/schema.json': JSON.stringify(
        collectionTypeSchema('page', 'pages', { title: { type: 'string' } }),
      ),
    });
    service = await createTestService({ appDir }, freshDatabaseUri());
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
  });
  after(() => service.close());

  const epoch = async () =>
    Number(
      (
        await service.context.connection.db?.collection<{ _id: string; seq: number }>('counters').findOne({
          _id: 'credentials-epoch',
        })
      )?.seq ?? 0,
    );
  const moves = async (change: () => Promise<unknown>): Promise<number> => {
    const before = await epoch();
    await change();
    return (await epoch()) - before;
  };

  it('role service updateRole replacing permissions, token service update with and without permissions', async () => {
    const roles = strapi.plugin('users-permissions')?.service('role') as {
      createRole(params: object): Promise<void>;
      updateRole(id: number, data: object): Promise<void>;
    };
    const page = (wanted: string[]) => ({
      'api::page': {
        controllers: { page: Object.fromEntries(ACTIONS.map((a) => [a, { enabled: wanted.includes(a) }])) },
      },
    });
    await roles.createRole({ name: 'Service role', description: 'x', permissions: page(['find']) });
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { name: 'Service role' } });
    const roleId = (role as { id: number }).id;
    expect(await moves(() => roles.updateRole(roleId, { permissions: page(['create', 'delete']) }))).to.equal(1);

    const tokens = strapi.service('admin::api-token') as {
      create(attributes: object): Promise<{ id: number }>;
      update(id: number, attributes: object): Promise<unknown>;
    };
    const token = await tokens.create({ name: 'counted', type: 'custom', permissions: ['api::page.page.find'] });
    expect(await moves(() => tokens.update(token.id, { permissions: ['api::page.page.findOne'] }))).to.equal(1);
    expect(await moves(() => tokens.update(token.id, { description: 'renamed' }))).to.equal(1);

    // an app's transaction writing three permissions: one move, after its commit
    const permissions = strapi.db.query('plugin::users-permissions.permission');
    const grants = ['api::page.page.find', 'api::page.page.findOne', 'api::page.page.update'];
    const inside: number[] = [];
    const moved = await moves(() =>
      strapi.db.transaction(async () => {
        for (const action of grants) {
          await permissions.create({ data: { action, role: roleId } });
          inside.push(await epoch());
        }
      }),
    );
    expect(moved).to.equal(1);
    expect(new Set(inside).size).to.equal(1);
  });
});
