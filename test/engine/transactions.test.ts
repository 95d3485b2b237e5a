// Multi-document transactions on the embedded engine, through the driver's own session API:
// commit, abort and the undo of inserts, updates and deletes (indexes and unique indexes
// included), document locks (a write outside a transaction waits, another transaction gets
// WriteConflict, which withTransaction retries), the transaction lifetime, endSessions, and the
// commands a transaction refuses. Persistence and crashes: transaction-persistence.test.ts.
import { expect } from 'chai';
import { MongoServerError, type ClientSession, type Collection, type MongoClient } from 'mongodb';
import { parseArgs } from '../../src/engine/cli.js';
import { startEngine, type Engine } from '../../src/engine/index.js';
import { MongoClient as Client } from 'mongodb';
import type { AnyDoc } from './helpers/server.js';

describe('engine: transactions', function () {
  let engine: Engine;
  let client: MongoClient;
  let n = 0;
  let coll: Collection<AnyDoc>;

  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // a standalone mongod has none; a replica set behaves differently on reads
    engine = await startEngine({ transactionLifetimeMs: 1_000 });
    client = await Client.connect(engine.uri);
  });
  after(async () => {
    await client?.close();
    await engine?.stop();
  });
  beforeEach(async () => {
    coll = client.db('txn').collection<AnyDoc>(`c${n++}`);
    await coll.createIndex({ slug: 1 }, { unique: true });
    await coll.createIndex({ n: 1 });
    await coll.insertMany([
      { _id: 1, slug: 'a', n: 1 },
      { _id: 2, slug: 'b', n: 2 },
      { _id: 3, slug: 'c', n: 3 },
    ]);
  });

  async function inSession<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = client.startSession();
    try {
      return await fn(session);
    } finally {
      await session.endSession();
    }
  }

  const state = async (c = coll) => ({
    docs: await c.find().sort({ _id: 1 }).toArray(),
    bySlug: (
      await c
        .find({ slug: { $gte: '' } })
        .sort({ slug: 1 })
        .toArray()
    ).map((d) => d._id),
    byN: (
      await c
        .find({ n: { $gte: 0 } })
        .sort({ n: 1 })
        .toArray()
    ).map((d) => d._id),
  });

  it('says so in hello, so a client can tell without the engine posing as a replica set', async () => {
    const hello = await client.db('admin').command({ hello: 1 });
    expect(hello.embeddedTransactions).to.equal(true);
    expect(hello.setName).to.equal(undefined);
  });

  it('commits writes to several collections together', async () => {
    const other = client.db('txn').collection<AnyDoc>(`c${n++}`);
    await inSession((session) =>
      session.withTransaction(async () => {
        await coll.insertOne({ _id: 4, slug: 'd', n: 4 }, { session });
        await other.insertOne({ _id: 1, of: 4 }, { session });
        await coll.updateOne({ _id: 1 }, { $set: { n: 10 } }, { session });
        await coll.deleteOne({ _id: 2 }, { session });
      }),
    );
    expect(await state()).to.deep.equal({
      docs: [
        { _id: 1, slug: 'a', n: 10 },
        { _id: 3, slug: 'c', n: 3 },
        { _id: 4, slug: 'd', n: 4 },
      ],
      bySlug: [1, 3, 4],
      byN: [3, 4, 1],
    });
    expect(await other.find().toArray()).to.deep.equal([{ _id: 1, of: 4 }]);
  });

  it('abort undoes inserts, updates and deletes, with their index entries', async () => {
    const before = await state();
    await inSession(async (session) => {
      session.startTransaction();
      await coll.insertOne({ _id: 4, slug: 'd', n: 0 }, { session });
      await coll.updateOne({ _id: 1 }, { $set: { slug: 'z', n: 9 } }, { session });
      await coll.updateMany({ n: { $gte: 2 } }, { $inc: { n: 5 } }, { session });
      await coll.deleteOne({ _id: 3 }, { session });
      // the transaction reads its own writes
      expect((await coll.find({}, { session }).sort({ _id: 1 }).toArray()).map((d) => d._id)).to.deep.equal([1, 2, 4]);
      await session.abortTransaction();
    });
    expect(await state()).to.deep.equal(before);
    // the unique index holds the restored keys again, and only those
    const dup = await coll.insertOne({ _id: 9, slug: 'c' }).catch((e: MongoServerError) => e);
    expect(dup).to.be.instanceOf(MongoServerError);
    expect((dup as MongoServerError).code).to.equal(11000);
    await coll.insertOne({ _id: 10, slug: 'z' });
    await coll.insertOne({ _id: 11, slug: 'd' });
  });

  it('a failed command aborts the transaction (as mongod): its earlier writes are undone', async () => {
    const before = await state();
    await inSession(async (session) => {
      session.startTransaction();
      await coll.insertOne({ _id: 4, slug: 'd' }, { session });
      const err = await coll.insertOne({ _id: 5, slug: 'a' }, { session }).catch((e: MongoServerError) => e);
      expect((err as MongoServerError).code).to.equal(11000);
      const next = await coll.insertOne({ _id: 6, slug: 'f' }, { session }).catch((e: MongoServerError) => e);
      expect((next as MongoServerError).code).to.equal(251); // NoSuchTransaction
      expect((next as MongoServerError).hasErrorLabel('TransientTransactionError')).to.equal(true);
      await session.abortTransaction();
    });
    expect(await state()).to.deep.equal(before);
  });

  it('a write outside transactions waits for the lock of a document, then applies on the committed version', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session });
      let done = false;
      const outside = coll.updateOne({ _id: 1 }, { $inc: { n: 100 } }).then(() => (done = true));
      // other documents are free, and reads see the committed version (read committed)
      await coll.updateOne({ _id: 2 }, { $inc: { n: 1 } });
      expect((await coll.findOne({ _id: 1 }))?.n).to.equal(1);
      await new Promise((r) => setTimeout(r, 50));
      expect(done).to.equal(false);
      await session.commitTransaction();
      await outside;
    });
    expect((await coll.findOne({ _id: 1 }))?.n).to.equal(111);
    expect((await coll.findOne({ _id: 2 }))?.n).to.equal(3);
  });

  it('a unique key freed by an open transaction waits for it: after an abort the key is taken again', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.deleteOne({ _id: 1 }, { session });
      const outside = coll.insertOne({ _id: 7, slug: 'a' }).catch((e: MongoServerError) => e);
      await new Promise((r) => setTimeout(r, 50));
      await session.abortTransaction();
      const err = await outside;
      expect((err as MongoServerError).code).to.equal(11000);
    });
    await inSession(async (session) => {
      session.startTransaction();
      await coll.updateOne({ _id: 1 }, { $set: { slug: 'a2' } }, { session });
      const outside = coll.insertOne({ _id: 7, slug: 'a' });
      await new Promise((r) => setTimeout(r, 50));
      await session.commitTransaction();
      await outside;
    });
    expect((await state()).bySlug).to.deep.equal([7, 1, 2, 3]);
  });

  it('dropping a collection or an index another transaction holds locks in waits for it', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.insertOne({ _id: 4, slug: 'd', n: 4 }, { session });
      const events: string[] = [];
      const dropIndex = coll.dropIndex('n_1').then(() => events.push('index dropped'));
      const drop = coll.drop().then(() => events.push('dropped'));
      await new Promise((r) => setTimeout(r, 50));
      events.push('commit');
      await session.commitTransaction();
      await Promise.all([dropIndex, drop]);
      expect(events).to.deep.equal(['commit', 'index dropped', 'dropped']);
    });
    expect(await coll.countDocuments()).to.equal(0);
  });

  it('a waiting write with maxTimeMS gives up with 50 and changes nothing', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.updateOne({ _id: 1 }, { $set: { n: 5 } }, { session });
      const err = await coll.updateMany({}, { $set: { n: 0 } }, { maxTimeMS: 100 }).catch((e: MongoServerError) => e);
      expect((err as MongoServerError).code).to.equal(50);
      await session.abortTransaction();
    });
    expect((await state()).docs.map((d) => d.n)).to.deep.equal([1, 2, 3]);
  });

  it('another transaction gets WriteConflict (TransientTransactionError); withTransaction retries it until the lock is free', async () => {
    await inSession(async (a) => {
      a.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: a });
      await inSession(async (b) => {
        b.startTransaction();
        await coll.updateOne({ _id: 2 }, { $inc: { n: 1 } }, { session: b });
        const err = await coll
          .updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: b })
          .catch((e: MongoServerError) => e);
        expect((err as MongoServerError).code).to.equal(112);
        expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).to.equal(true);
        await b.abortTransaction();
      });
      expect((await coll.findOne({ _id: 2 }))?.n).to.equal(2); // b was undone
      let attempts = 0;
      const retried = inSession((b) =>
        b.withTransaction(async () => {
          attempts++;
          await coll.updateOne({ _id: 2 }, { $inc: { n: 1 } }, { session: b });
          await coll.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session: b });
        }),
      );
      // a second attempt means the first met a's lock (a sleep here let a commit first on a busy machine)
      while (attempts < 2) await new Promise((r) => setTimeout(r, 10));
      await a.commitTransaction();
      await retried;
    });
    expect((await state()).docs.map((d) => d.n)).to.deep.equal([111, 3, 3]);
  });

  it('an open transaction is aborted after its lifetime; its commit then fails with NoSuchTransaction', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.insertOne({ _id: 4, slug: 'd' }, { session });
      // a write outside waits for the transaction's lock on _id 4: it applies once the lifetime ended it
      await coll.insertOne({ _id: 4, slug: 'd outside' });
      expect((await coll.findOne({ _id: 4 }))?.slug).to.equal('d outside');
      const err = await session.commitTransaction().catch((e: MongoServerError) => e);
      expect((err as MongoServerError).code).to.equal(251);
    });
    await coll.deleteOne({ _id: 4 });
  });

  it('endSessions aborts the open transactions of the sessions it ends', async () => {
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 4, slug: 'd' }, { session });
    await client.db('admin').command({ endSessions: [session.id] });
    expect(await coll.countDocuments({ _id: 4 })).to.equal(0);
    await coll.insertOne({ _id: 4, slug: 'd' }); // not locked any more
    await session.abortTransaction().catch(() => {});
    await session.endSession();
  });

  it('refuses commands a transaction may not run (263) and aborts it', async () => {
    await inSession(async (session) => {
      session.startTransaction();
      await coll.insertOne({ _id: 4, slug: 'd' }, { session });
      const err = await client
        .db('txn')
        .command({ count: coll.collectionName }, { session })
        .catch((e: MongoServerError) => e);
      expect((err as MongoServerError).code).to.equal(263);
      await session.abortTransaction();
    });
    expect(await coll.countDocuments({ _id: 4 })).to.equal(0);
  });

  it('with transactions off (`content-service engine --no-transactions`), refuses them as a standalone mongod', async () => {
    expect(parseArgs(['--no-transactions']).transactions).to.equal(false);
    const off = await startEngine({ transactions: parseArgs(['--no-transactions']).transactions });
    const c = await Client.connect(off.uri);
    try {
      expect((await c.db('admin').command({ hello: 1 })).embeddedTransactions).to.equal(undefined);
      const session = c.startSession();
      session.startTransaction();
      const err = await c
        .db('t')
        .collection('x')
        .insertOne({ a: 1 }, { session })
        .catch((e: MongoServerError) => e);
      // the driver rewrites a standalone's 20 ("Transaction numbers are only allowed on a replica set member or mongos")
      expect(String(err)).to.match(/does not support retryable writes/);
      await session.abortTransaction().catch(() => {});
      await session.endSession();
    } finally {
      await c.close();
      await off.stop();
    }
  });
});
