// Work that outlives its transaction (a Promise.all whose other branch failed) is refused once the
// transaction ended, never committed on its own: through the app's strapi.db.transaction, a lifecycle
// hook's entity-service write, strapi.db.query, a nested strapi.db.transaction, and the write path's
// own transaction retried after a write conflict (the straggler of the first attempt must not join
// the second).
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningStrapi, type StrapiApp } from '../../src/lifecycle/index.js';
import { inTransaction } from '../../src/write/scope.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const NOTE = 'api::note.note';

const PROJECT: Record<string, string> = {
  'src/index.js': 'module.exports = {};',
  'src/api/note/content-types/note/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'note' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' }, rank: { type: 'integer', max: 10 } },
  }),
};

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('work that outlives its transaction', () => {
  let service: TestService;
  let strapi: StrapiApp;
  const texts = async () =>
    ((await strapi.entityService.findMany(NOTE, { sort: { id: 'asc' } })) as unknown as { text: string }[]).map(
      (e) => e.text,
    );

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-stragglers-'));
    await writeFiles(dir, PROJECT);
    service = await createTestService({ appDir: dir }, freshDatabaseUri());
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
    expect(service.context.models.transactions).to.equal(true);
  });
  after(() => service.close());

  /**
   * Runs `straggle` as the branch of a Promise.all inside strapi.db.transaction whose other branch
   * fails; `straggle` starts once the rollback happened. Answers what `straggle` settled with.
   */
  async function afterFailedTransaction(straggle: () => Promise<unknown>): Promise<unknown> {
    const rolledBack = gate();
    let straggler: Promise<unknown> | undefined;
    const failure = await strapi.db
      .transaction(async ({ onRollback }) => {
        onRollback(rolledBack.open);
        straggler = rolledBack.opened.then(straggle).catch((error: unknown) => error);
        await Promise.all([straggler, Promise.reject(new Error('the other branch failed'))]);
      })
      .catch((error: Error) => error);
    expect((failure as Error).message).to.equal('the other branch failed');
    return straggler;
  }

  it('an entity-service create sent after the rollback is refused, not committed alone', async () => {
    const before = await texts();
    const outcome = await afterFailedTransaction(() =>
      strapi.entityService.create(NOTE, { data: { text: 'straggler' } }),
    );
    expect(outcome).to.be.instanceOf(Error);
    expect((outcome as Error).name).to.equal('TransactionEnded');
    expect(await texts()).to.deep.equal(before);
  });

  it('strapi.db.query writes and a nested strapi.db.transaction after the rollback are refused', async () => {
    const before = await texts();
    const query = await afterFailedTransaction(() => strapi.db.query(NOTE).create({ data: { text: 'by query' } }));
    expect((query as Error).name).to.equal('TransactionEnded');
    const nested = await afterFailedTransaction(() =>
      strapi.db.transaction(() => strapi.entityService.create(NOTE, { data: { text: 'nested' } })),
    );
    expect((nested as Error).name).to.equal('TransactionEnded');
    expect(await texts()).to.deep.equal(before);
  });

  it("a create whose before-hook was still running when the other create's 400 rolled back leaves nothing", async () => {
    const before = await texts();
    const rolledBack = gate();
    let hooked = false;
    strapi.db.lifecycles.subscribe({
      models: [NOTE],
      async beforeCreate(event: { params: { data: { text?: string } } }) {
        if (event.params.data.text !== 'slow hook') return;
        hooked = true;
        await rolledBack.opened;
      },
    });
    let slow: Promise<unknown> | undefined;
    const failure = await strapi.db
      .transaction(async ({ onRollback }) => {
        onRollback(rolledBack.open);
        slow = strapi.entityService.create(NOTE, { data: { text: 'slow hook' } }).catch((error: unknown) => error);
        await Promise.all([slow, strapi.entityService.create(NOTE, { data: { text: 'too big', rank: 11 } })]);
      })
      .catch((error: Error) => error);
    expect((failure as Error).name).to.equal('ValidationError');
    expect(hooked).to.equal(true);
    expect(((await slow) as Error).name).to.equal('TransactionEnded');
    expect(await texts()).to.deep.equal(before);
  });

  it('work still running when cb returned is refused too; what cb awaited is committed', async () => {
    const committed = gate();
    let late: Promise<unknown> | undefined;
    await strapi.db.transaction(async ({ onCommit }) => {
      onCommit(committed.open);
      await strapi.entityService.create(NOTE, { data: { text: 'awaited' } });
      late = committed.opened
        .then(() => strapi.entityService.create(NOTE, { data: { text: 'not awaited' } }))
        .catch((error: unknown) => error);
    });
    expect(((await late) as Error).name).to.equal('TransactionEnded');
    const after = await texts();
    expect(after).to.include('awaited');
    expect(after).to.not.include('not awaited');
  });

  it('an event listener still running after the commit is not refused: it runs outside, as before', async () => {
    const committed = gate();
    let listened: Promise<unknown> | undefined;
    const off = strapi.eventHub.on('entry.create', async (...args: unknown[]) => {
      const { entry } = args[0] as { entry: { text?: string } };
      if (entry.text !== 'heard') return;
      listened = committed.opened
        .then(() => strapi.entityService.create(NOTE, { data: { text: 'written by the listener' } }))
        .catch((error: unknown) => error);
      await listened;
    });
    try {
      await strapi.db.transaction(async ({ onCommit }) => {
        onCommit(committed.open);
        await strapi.entityService.create(NOTE, { data: { text: 'heard' } });
      });
      // the event is emitted, not awaited, by the create
      for (let waited = 0; !listened && waited < 200; waited++) await new Promise((r) => setTimeout(r, 10));
      expect(await listened).to.include({ text: 'written by the listener' });
      expect(await texts()).to.include.members(['heard', 'written by the listener']);
    } finally {
      off();
    }
  });

  it("the write path's retried attempt does not take the first attempt's straggler in", async () => {
    const { models } = service.context;
    const notes = models.db().collection<{ _id: string; text?: string }>('straggler_probe');
    await notes.insertOne({ _id: 'contended' });
    // another transaction holds the document: the first attempt meets a WriteConflict
    const holder = models.connection.getClient().startSession();
    holder.startTransaction();
    await notes.updateOne({ _id: 'contended' }, { $set: { text: 'holder' } }, { session: holder });
    const release = gate();
    let straggler: Promise<unknown> | undefined;
    let attempts = 0;
    try {
      await inTransaction(models, async (scope) => {
        attempts += 1;
        if (attempts === 1) {
          straggler = release.opened
            .then(() => notes.insertOne({ _id: 'straggler' }, { session: scope.session }))
            .catch((error: unknown) => error);
          await notes.updateOne({ _id: 'contended' }, { $set: { text: 'first' } }, { session: scope.session });
          return;
        }
        await holder.abortTransaction();
        release.open();
        await straggler;
        await notes.updateOne({ _id: 'contended' }, { $set: { text: 'retried' } }, { session: scope.session });
      });
    } finally {
      await holder.endSession();
    }
    expect(attempts).to.equal(2);
    expect(((await straggler) as Error).name).to.equal('TransactionEnded');
    expect(await notes.find().sort({ _id: 1 }).toArray()).to.deep.equal([{ _id: 'contended', text: 'retried' }]);
  });
});

// Commands handed the transaction's session before its abort started, still waiting for a
// connection (a pool of one) or on the wire while the abort runs: each goes out in the transaction
// and is undone with it, or is refused (docs/ARCHITECTURE.md, "Work that outlives its transaction").
describe('work that outlives its transaction, on one connection', function () {
  this.timeout(20_000);
  let service: TestService;
  let strapi: StrapiApp;
  let inserts = 0;

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-stragglers-'));
    await writeFiles(dir, PROJECT);
    const uri = new URL(freshDatabaseUri());
    uri.searchParams.set('maxPoolSize', '1');
    uri.searchParams.set('monitorCommands', 'true');
    service = await createTestService({ appDir: dir }, uri.toString());
    service.context.connection.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'insert' && event.command.insert === 'notes') inserts++;
    });
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
  });
  after(() => service.close());

  it('keeps none of the writes under way when the transaction rolls back, whenever it does', async () => {
    for (let round = 0; round < 20; round++) {
      const writes: Promise<unknown>[] = [];
      const failed = await strapi.db
        .transaction(async () => {
          for (let i = 0; i < 20; i++)
            writes.push(
              strapi.db
                .query(NOTE)
                .create({ data: { text: `${round}.${i}` } })
                .catch(() => undefined),
            );
          // the rollback starts while some writes wait for the one connection, others are on it
          await new Promise((resolve) => setTimeout(resolve, (round * 7) % 60));
          throw new Error('rolled back');
        })
        .then(
          () => false,
          () => true,
        );
      expect(failed).to.equal(true);
      await Promise.all(writes);
    }
    // some inserts did go out in the transactions, and were undone with them
    expect(inserts).to.be.greaterThan(0);
    expect(await service.context.connection.collection('notes').countDocuments()).to.equal(0);
  });
});
