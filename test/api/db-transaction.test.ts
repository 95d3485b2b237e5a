// strapi.db.transaction(cb) as Strapi 4.26's: the entity service, strapi.db.query and the core
// services inside cb share one transaction on the embedded engine, committed when cb returns,
// rolled back when it throws or calls rollback(); nested calls join the outer one; onCommit and
// onRollback run after the end; lifecycle hooks run inside, webhook events are emitted at once
// (not deferred to the commit, as Strapi's entity service). The project's controller calls it.
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandStartedEvent } from 'mongodb';
import request from 'supertest';
import type { ServiceConfig } from '../../src/config/index.js';
import { selectDatabase } from '../../src/database/select-database.js';
import { runningStrapi, type StrapiApp } from '../../src/lifecycle/index.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const NOTE = 'api::note.note';
const TAG = 'api::tag.tag';

const schema = (singular: string, plural: string) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  });

const PROJECT: Record<string, string> = {
  'config/permissions.json': JSON.stringify({
    public: ['api::note.note.batch', 'api::note.note.create', 'api::note.note.find'],
  }),
  'src/api/note/content-types/note/schema.json': schema('note', 'notes'),
  'src/api/tag/content-types/tag/schema.json': schema('tag', 'tags'),
  // POST /api/notes/batch: a note and a tag together; `fail` throws after both were written
  'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async batch(ctx) {
    const { text, fail } = ctx.request.body;
    ctx.body = await strapi.db.transaction(async () => {
      const note = await strapi.entityService.create('api::note.note', { data: { text } });
      const tag = await strapi.db.query('api::tag.tag').create({ data: { text } });
      if (fail) throw new Error('the batch failed');
      return { note: note.id, tag: tag.id };
    });
  },
}));
`,
  'src/api/note/routes/batch.js': `module.exports = { routes: [{ method: 'POST', path: '/notes/batch', handler: 'note.batch' }] };`,
  // what the hooks and the event hub saw, for the test to read (the global .mocharc.json allows)
  'src/index.js': `module.exports = {
  bootstrap({ strapi }) {
    globalThis.lifecycleEvents = [];
    strapi.db.lifecycles.subscribe({
      models: ['api::note.note'],
      afterCreate(event) {
        globalThis.lifecycleEvents.push({ hook: 'afterCreate', text: event.result.text, inTransaction: strapi.db.inTransaction() });
      },
    });
    strapi.eventHub.on('entry.create', ({ uid, entry }) => {
      if (uid === 'api::note.note') globalThis.lifecycleEvents.push({ event: 'entry.create', text: entry.text });
    });
  },
};
`,
};

type Seen = { hook?: string; event?: string; text: string; inTransaction?: boolean }[];
const seen = () => (globalThis as unknown as { lifecycleEvents: Seen }).lifecycleEvents;

async function projectDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-db-transaction-'));
  await writeFiles(dir, PROJECT);
  return dir;
}

describe('strapi.db.transaction(cb)', () => {
  let service: TestService;
  let strapi: StrapiApp;
  const texts = async (uid: string) =>
    ((await strapi.entityService.findMany(uid, { sort: { id: 'asc' } })) as unknown as { text: string }[]).map(
      (e) => e.text,
    );

  before(async () => {
    const uri = new URL(freshDatabaseUri());
    uri.searchParams.set('monitorCommands', 'true');
    service = await createTestService({ appDir: await projectDir() }, uri.toString());
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
    expect(service.context.models.transactions).to.equal(true);
  });
  after(() => service.close());

  it("commits a controller's two creates together and answers what cb returned", async () => {
    const res = await request(service.app).post('/api/notes/batch').send({ text: 'both' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.keys('note', 'tag');
    expect(await strapi.entityService.findOne(NOTE, res.body.note as number)).to.include({ text: 'both' });
    expect(await strapi.entityService.findOne(TAG, res.body.tag as number)).to.include({ text: 'both' });
  });

  it('a throw after the writes leaves none of them, and the error reaches the caller', async () => {
    const [notes, tags] = [await texts(NOTE), await texts(TAG)];
    seen().length = 0;
    const res = await request(service.app).post('/api/notes/batch').send({ text: 'half', fail: true });
    expect(res.status).to.equal(500);
    expect(await texts(NOTE)).to.deep.equal(notes);
    expect(await texts(TAG)).to.deep.equal(tags);
    // the hook ran inside the transaction; the webhook event was emitted at the create, not deferred
    expect(seen()).to.deep.equal([
      { hook: 'afterCreate', text: 'half', inTransaction: true },
      { event: 'entry.create', text: 'half' },
    ]);
  });

  it('rollback() called by cb undoes its writes and runs only the onRollback callbacks; cb still answers', async () => {
    const before = await texts(NOTE);
    const ran: string[] = [];
    const answer = await strapi.db.transaction(async ({ rollback, onCommit, onRollback }) => {
      onCommit(() => ran.push('commit'));
      onRollback(() => ran.push('rollback'));
      await strapi.entityService.create(NOTE, { data: { text: 'rolled back' } });
      await rollback();
      await rollback(); // once ended, nothing more
      return 'done';
    });
    expect(answer).to.equal('done');
    expect(await texts(NOTE)).to.deep.equal(before);
    expect(ran).to.deep.equal(['rollback']);
  });

  it('commit() called by cb ends it early: what follows is outside, not undone by a later throw', async () => {
    const error = await strapi.db
      .transaction(async ({ commit }) => {
        await strapi.entityService.create(NOTE, { data: { text: 'committed early' } });
        await commit();
        expect(strapi.db.inTransaction()).to.equal(false);
        await strapi.entityService.create(NOTE, { data: { text: 'after the commit' } });
        throw new Error('late');
      })
      .catch((err: Error) => err);
    expect((error as Error).message).to.equal('late');
    expect(await texts(NOTE)).to.include.members(['committed early', 'after the commit']);
  });

  it('reads inside see the transaction’s own writes, through the entity service, db.query and the core service', async () => {
    await strapi.db.transaction(async ({ rollback }) => {
      const note = (await strapi.entityService.create(NOTE, { data: { text: 'own write' } })) as { id: number };
      expect(await strapi.entityService.findOne(NOTE, note.id)).to.include({ text: 'own write' });
      expect(await strapi.db.query(NOTE).count({ where: { text: 'own write' } })).to.equal(1);
      const { results } = (await (strapi.service(NOTE) as { find(params: object): Promise<unknown> }).find({
        filters: { text: 'own write' },
      })) as {
        results: unknown[];
      };
      expect(results).to.have.length(1);
      await strapi.db.query(NOTE).update({ where: { id: note.id }, data: { text: 'own update' } });
      expect(await strapi.db.query(NOTE).findOne({ where: { id: note.id } })).to.include({ text: 'own update' });
      await rollback();
    });
    expect(await texts(NOTE)).to.not.include.members(['own write', 'own update']);
  });

  it('every command inside carries the transaction, the core store’s too: its rolled back set is gone', async () => {
    const store = strapi.store({ type: 'plugin', name: 'tx-test' });
    await store.set({ key: 'flag', value: 'before' });
    const sent: { name: string; inTransaction: boolean }[] = [];
    const client = service.context.connection.getClient();
    const listener = (event: CommandStartedEvent) =>
      sent.push({ name: event.commandName, inTransaction: event.command.txnNumber !== undefined });
    client.on('commandStarted', listener);
    try {
      await strapi.db.transaction(async ({ rollback }) => {
        await store.set({ key: 'flag', value: 'inside' });
        expect(await store.get({ key: 'flag' })).to.equal('inside');
        await strapi.entityService.findMany(NOTE, { filters: { text: 'nothing' } });
        await strapi.db.query(NOTE).count({});
        await rollback();
      });
    } finally {
      client.off('commandStarted', listener);
    }
    expect(await store.get({ key: 'flag' })).to.equal('before');
    const work = sent.filter((c) => c.name !== 'abortTransaction');
    expect(work.length).to.be.greaterThan(3);
    expect(work.filter((c) => !c.inTransaction)).to.deep.equal([]);
  });

  it('writes run at once (Promise.all) inside cb share it: all kept on commit, none on a throw', async () => {
    const before = await texts(NOTE);
    const many = (prefix: string) =>
      Promise.all([1, 2, 3, 4].map((n) => strapi.entityService.create(NOTE, { data: { text: `${prefix} ${n}` } })));
    const failed = await strapi.db
      .transaction(async () => {
        await many('parallel undone');
        throw new Error('undo all');
      })
      .catch((err: Error) => err);
    expect((failed as Error).message).to.equal('undo all');
    expect(await texts(NOTE)).to.deep.equal(before);
    await strapi.db.transaction(() => many('parallel kept'));
    expect(await texts(NOTE)).to.include.members([
      'parallel kept 1',
      'parallel kept 2',
      'parallel kept 3',
      'parallel kept 4',
    ]);
  });

  it('a nested call joins the outer transaction: its commit() does nothing, the outer throw undoes both', async () => {
    const before = await texts(NOTE);
    const order: string[] = [];
    const error = await strapi.db
      .transaction(async ({ onRollback, onCommit }) => {
        onCommit(() => order.push('outer commit'));
        onRollback(() => order.push('outer rollback'));
        await strapi.entityService.create(NOTE, { data: { text: 'outer' } });
        const inner = await strapi.db.transaction(async ({ commit, onRollback: innerRollback }) => {
          innerRollback(() => order.push('inner rollback'));
          await strapi.entityService.create(NOTE, { data: { text: 'inner' } });
          await commit();
          expect(strapi.db.inTransaction()).to.equal(true);
          return 'inner result';
        });
        expect(inner).to.equal('inner result');
        expect(order).to.deep.equal([]);
        throw new Error('outer fails');
      })
      .catch((err: Error) => err);
    expect((error as Error).message).to.equal('outer fails');
    expect(await texts(NOTE)).to.deep.equal(before);
    expect(order).to.deep.equal(['outer rollback', 'inner rollback']);
  });

  it('onCommit callbacks run after the commit, onRollback ones are dropped', async () => {
    const order: string[] = [];
    await strapi.db.transaction(async ({ onCommit, onRollback }) => {
      onCommit(async () => {
        order.push(`committed: ${(await texts(NOTE)).includes('with callbacks')}`);
      });
      onRollback(() => order.push('rolled back'));
      await strapi.entityService.create(NOTE, { data: { text: 'with callbacks' } });
      order.push('cb done');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).to.deep.equal(['cb done', 'committed: true']);
  });

  it('a request made meanwhile outside the transaction is not part of it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const insideWritten = new Promise<void>((resolve) => (written = resolve));
    const transaction = strapi.db
      .transaction(async () => {
        await strapi.entityService.create(NOTE, { data: { text: 'inside' } });
        written();
        await gate;
        throw new Error('undone');
      })
      .catch((err: Error) => err);
    await insideWritten;
    expect(strapi.db.inTransaction()).to.equal(false);
    const outside = await request(service.app)
      .post('/api/notes')
      .send({ data: { text: 'outside' } });
    expect(outside.status, JSON.stringify(outside.body)).to.equal(200);
    release();
    expect(((await transaction) as Error).message).to.equal('undone');
    const after = await texts(NOTE);
    expect(after).to.include('outside');
    expect(after).to.not.include('inside');
  });

  it('without a callback: the service says it is not supported', async () => {
    const call = strapi.db.transaction as unknown as () => Promise<unknown>;
    const error = await call().catch((err: Error) => err);
    expect((error as Error).message).to.match(/strapi\.db\.transaction\(\) without a callback is not supported/);
  });
});

describe('strapi.db.transaction(cb) on a database without transactions (ENGINE_TRANSACTIONS=off)', () => {
  it('runs cb without atomicity and warns once', async () => {
    const saved = process.env.ENGINE_TRANSACTIONS;
    process.env.ENGINE_TRANSACTIONS = 'off';
    let database: Awaited<ReturnType<typeof selectDatabase>>;
    try {
      database = await selectDatabase({ database: {} } as ServiceConfig, { memory: true });
    } finally {
      if (saved === undefined) delete process.env.ENGINE_TRANSACTIONS;
      else process.env.ENGINE_TRANSACTIONS = saved;
    }
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir: await projectDir(), logger }, database.uri);
    try {
      expect(service.context.models.transactions).to.equal(false);
      const committed = await request(service.app).post('/api/notes/batch').send({ text: 'kept' });
      expect(committed.status).to.equal(200);
      const failed = await request(service.app).post('/api/notes/batch').send({ text: 'not undone', fail: true });
      expect(failed.status).to.equal(500);
      const strapi = runningStrapi()!;
      const notes = (await strapi.entityService.findMany(NOTE, {})) as unknown as { text: string }[];
      expect(notes.map((n) => n.text)).to.have.members(['kept', 'not undone']);
      const warnings = lines.filter((l) => l.level === WARN && String(l.msg).startsWith('strapi.db.transaction'));
      expect(warnings).to.have.length(1);
      expect(warnings[0]?.msg).to.include('not undone when it fails');
    } finally {
      await service.close();
      await database.stop();
    }
  });
});
