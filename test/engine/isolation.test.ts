// Read committed on the embedded engine: while a transaction is open (its writes applied in place),
// every read of another session — find (index ranges, scans, sorted pages walked on an index,
// projections, substrings through the trigram index), getMore, count, countDocuments, distinct,
// aggregate ($count, $group, $lookup in its forms, the semi-join, $facet, $unionWith) — answers the
// committed state; the transaction reads its own writes; after the commit every read answers the
// new state, after an abort the old one. Expected answers come from the same reads on a copy
// holding only committed data (the writes applied there without a transaction). Writes read the
// same way and meet the locks of what they matched; unique keys an open transaction holds make
// other writers wait (WriteConflict in a transaction), as mongod.
import { expect } from 'chai';
import { MongoClient, MongoServerError, type ClientSession, type Collection, type Document } from 'mongodb';
import { startEngine, type Engine } from '../../src/engine/index.js';

type Item = Document & { _id: number };

const ITEMS: Item[] = [
  { _id: 1, slug: 'a', n: 1, title: 'Apple pie', tags: ['red', 'sweet'], owner: 1 },
  { _id: 2, slug: 'b', n: 2, title: 'banana bread', tags: ['yellow'], owner: 1 },
  { _id: 3, slug: 'c', n: 3, title: 'Cherry tart', tags: ['red'], owner: 2 },
  { _id: 4, slug: 'd', n: 4, title: 'date loaf', tags: [], owner: 2 },
  { _id: 5, slug: 'e', n: 5, title: 'elderflower', tags: ['white', 'sweet'], owner: 3 },
  { _id: 6, slug: 'f', n: 6, title: 'fig apricot jam', tags: ['purple'], owner: 3 },
  { _id: 7, slug: 'g', n: 7, title: 'grape', tags: ['red', 'purple'], owner: null },
  { _id: 8, slug: 'h', n: 8, title: 'Hazelnut', tags: ['brown'] },
];
const OWNERS: Item[] = [
  { _id: 1, name: 'Ann' },
  { _id: 2, name: 'Bob' },
  { _id: 3, name: 'Cy' },
];

interface Pair {
  items: Collection<Item>;
  owners: Collection<Item>;
}

/** The reads a transaction must not disturb, by name; `session`: run inside its transaction (no `count` command there: 263). */
async function reads({ items, owners }: Pair, session?: ClientSession): Promise<Record<string, unknown>> {
  const o = { session };
  const ids = (docs: Item[]) => docs.map((d) => d._id);
  const byId = (a: Document, b: Document) => Number(a._id) - Number(b._id);
  const aggregate = (pipeline: Document[], coll = items) => coll.aggregate<Item>(pipeline, o).toArray();
  const out: Record<string, unknown> = {
    all: await items.find({}, o).sort({ _id: 1 }).toArray(),
    // natural order is not a promise (an aborted delete puts its document back at the end)
    scan: ids(await items.find({}, o).toArray()).sort((a, b) => a - b),
    range: ids(
      await items
        .find({ n: { $gte: 3, $lt: 7 } }, o)
        .sort({ n: 1, _id: 1 })
        .toArray(),
    ),
    page: ids(await items.find({}, o).sort({ n: -1 }).limit(3).toArray()),
    pageSkip: ids(
      await items
        .find({ n: { $gte: 2 } }, o)
        .sort({ title: 1 })
        .skip(1)
        .limit(2)
        .toArray(),
    ),
    pageById: ids(
      await items
        .find({ n: { $lt: 100 } }, o)
        .sort({ _id: -1 })
        .limit(2)
        .toArray(),
    ),
    one: await items.findOne({ _id: 2 }, o),
    inserted: await items.findOne({ _id: 9 }, o),
    deleted: await items.findOne({ _id: 3 }, o),
    bySlug: ids(
      await items
        .find({ slug: { $in: ['b', 'c', 'i'] } }, o)
        .sort({ _id: 1 })
        .toArray(),
    ),
    tags: ids(await items.find({ tags: 'red' }, o).sort({ _id: 1 }).toArray()),
    text: ids(
      await items
        .find({ title: { $regex: 'ap', $options: 'i' } }, o)
        .sort({ _id: 1 })
        .toArray(),
    ),
    textPage: ids(await items.find({ title: /ap/i }, o).sort({ n: 1 }).limit(2).toArray()),
    projected: await items
      .find({ n: { $lt: 6 } }, { ...o, projection: { title: 1 } })
      .sort({ _id: 1 })
      .toArray(),
    batches: ids(
      await items
        .find({}, { ...o, batchSize: 2 })
        .sort({ n: 1, _id: 1 })
        .toArray(),
    ),
    countAll: await items.countDocuments({}, o),
    countRange: await items.countDocuments({ n: { $gte: 3 } }, o),
    countInexact: await items.countDocuments({ n: { $gte: 3 }, title: { $exists: true } }, o),
    countText: await items.countDocuments({ title: /ap/i }, o),
    countTextRange: await items.countDocuments({ title: /ap/i, n: { $lte: 6 } }, o),
    countTags: await items.countDocuments({ tags: 'red' }, o),
    distinct: (await items.distinct('n', {}, o)).sort(),
    distinctTags: (await items.distinct('tags', { n: { $gt: 1 } }, o)).sort(),
    aggPage: await aggregate([{ $match: { n: { $gte: 2 } } }, { $sort: { n: 1 } }, { $limit: 3 }]),
    aggCount: await aggregate([{ $match: { n: { $lt: 6 } } }, { $count: 'n' }]),
    aggGroup: (await aggregate([{ $group: { _id: '$owner', n: { $sum: 1 } } }])).sort(byId),
    owners: await aggregate([
      { $match: { _id: { $lte: 9 } } },
      { $sort: { _id: 1 } },
      { $lookup: { from: owners.collectionName, localField: 'owner', foreignField: '_id', as: 'by' } },
    ]),
    // joined documents come in natural order (see scan)
    itemsOf: (
      await aggregate(
        [
          { $sort: { _id: 1 } },
          { $lookup: { from: items.collectionName, localField: '_id', foreignField: 'owner', as: 'items' } },
          { $project: { name: 1, items: '$items._id' } },
        ],
        owners,
      )
    ).map((d) => ({ ...d, items: (d.items as number[]).sort((a, b) => a - b) })),
    itemsOfLet: await aggregate(
      [
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: items.collectionName,
            let: { id: '$_id' },
            pipeline: [{ $match: { $expr: { $eq: ['$owner', '$$id'] } } }, { $sort: { n: 1 } }, { $project: { n: 1 } }],
            as: 'items',
          },
        },
      ],
      owners,
    ),
    topItemOf: await aggregate(
      [
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: items.collectionName,
            localField: '_id',
            foreignField: 'owner',
            pipeline: [{ $sort: { n: -1 } }, { $limit: 1 }, { $project: { n: 1 } }],
            as: 'top',
          },
        },
      ],
      owners,
    ),
    withItems: ids(
      await aggregate(
        [
          { $lookup: { from: items.collectionName, localField: '_id', foreignField: 'owner', as: 'items' } },
          { $match: { items: { $ne: [] } } },
          { $project: { items: 0 } },
          { $sort: { _id: 1 } },
        ],
        owners,
      ),
    ),
    facet: await aggregate([
      { $match: { n: { $gte: 1 } } },
      {
        $facet: {
          low: [{ $match: { n: { $lt: 4 } } }, { $count: 'n' }],
          ids: [{ $sort: { _id: 1 } }, { $project: { _id: 1 } }],
        },
      },
    ]),
    union: ids(
      await aggregate([
        { $match: { n: { $gt: 5 } } },
        { $unionWith: { coll: owners.collectionName, pipeline: [{ $match: { name: { $exists: true } } }] } },
        { $sort: { _id: 1 } },
      ]),
    ),
  };
  if (!session) {
    out.estimated = await items.estimatedDocumentCount();
    out.countCommand = (await items.db.command({ count: items.collectionName, query: { n: { $gte: 3 } } })).n;
  }
  return out;
}

/** One transaction's writes: inserts invisible, updates moving documents in and out of ranges and sort positions, deletes. */
async function writeAll({ items, owners }: Pair, session?: ClientSession): Promise<void> {
  const o = { session };
  await items.insertOne({ _id: 9, slug: 'i', n: 4, title: 'apricot', tags: ['red'], owner: 1 }, o);
  await items.updateOne({ _id: 2 }, { $set: { n: 10, title: 'Zucchini bread' } }, o); // out of n ranges, last by title
  await items.updateOne({ _id: 5 }, { $set: { n: 0, tags: ['red'] } }, o); // to the front, into `tags: red`
  await items.updateOne({ _id: 8 }, { $set: { title: 'hazelnut spread', owner: 2 } }, o); // into the text match
  await items.deleteOne({ _id: 3 }, o);
  await items.updateMany({ owner: 1 }, { $inc: { n: 1 } }, o);
  await owners.updateOne({ _id: 2 }, { $set: { name: 'Bea' } }, o);
  await owners.deleteOne({ _id: 3 }, o);
  await owners.insertOne({ _id: 4, name: 'Dee' }, o);
}

describe('engine: read committed', function () {
  let engine: Engine;
  let client: MongoClient;
  let n = 0;

  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // a standalone mongod has no transactions
    engine = await startEngine({ transactionLifetimeMs: 10_000 });
    client = await MongoClient.connect(engine.uri);
  });
  after(async () => {
    await client?.close();
    await engine?.stop();
  });

  async function pair(): Promise<Pair> {
    const db = client.db('isolation');
    const p = { items: db.collection<Item>(`items${n}`), owners: db.collection<Item>(`owners${n++}`) };
    await p.items.createIndex({ slug: 1 }, { unique: true });
    await p.items.createIndex({ n: 1 });
    await p.items.createIndex({ title: 1 });
    await p.items.createIndex({ tags: 1 });
    await p.items.createIndex({ owner: 1 });
    await p.items.insertMany(ITEMS);
    await p.owners.insertMany(OWNERS);
    return p;
  }

  async function inTransaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = client.startSession();
    try {
      session.startTransaction();
      return await fn(session);
    } finally {
      await session.endSession();
    }
  }

  it('every read path answers the committed state while a transaction is open; the new state after its commit', async () => {
    const main = await pair();
    const copy = await pair();
    const before = await reads(main);
    expect(before).to.deep.equal(await reads(copy));
    await writeAll(copy);
    const after = await reads(copy);
    expect(after).to.not.deep.equal(before);
    await inTransaction(async (session) => {
      await writeAll(main, session);
      expect(await reads(main)).to.deep.equal(before);
      // the transaction reads its own writes; another transaction reads the committed state
      const { estimated: _e, countCommand: _c, ...ownView } = after;
      expect(await reads(main, session)).to.deep.equal(ownView);
      await inTransaction(async (other) => {
        const { estimated: _e2, countCommand: _c2, ...committed } = before;
        expect(await reads(main, other)).to.deep.equal(committed);
        await other.abortTransaction();
      });
      await session.commitTransaction();
    });
    expect(await reads(main)).to.deep.equal(after);
  });

  it('after an abort every read answers the old state', async () => {
    const main = await pair();
    const before = await reads(main);
    await inTransaction(async (session) => {
      await writeAll(main, session);
      expect(await reads(main)).to.deep.equal(before);
      await session.abortTransaction();
    });
    expect(await reads(main)).to.deep.equal(before);
  });

  it('a cursor opened while a transaction is open gives the committed documents in its later batches, whatever the transaction did since', async () => {
    const main = await pair();
    const expected = await main.items.find({}).sort({ n: 1, _id: 1 }).toArray();
    await inTransaction(async (session) => {
      await main.items.updateOne({ _id: 1 }, { $set: { n: 100 } }, { session });
      const cursor = main.items.find({}, { batchSize: 2 }).sort({ n: 1, _id: 1 });
      const first = [await cursor.next(), await cursor.next()];
      await main.items.updateOne({ _id: 8 }, { $set: { n: -1 } }, { session });
      await main.items.deleteOne({ _id: 7 }, { session });
      await session.commitTransaction();
      expect([...first, ...(await cursor.toArray())]).to.deep.equal(expected);
    });
  });

  it('writes read the committed state too, and wait for the transaction holding what they matched', async () => {
    const main = await pair();
    await inTransaction(async (session) => {
      // the transaction moves 1 out of `n < 2` and deletes 2
      await main.items.updateOne({ _id: 1 }, { $set: { n: 50 } }, { session });
      await main.items.deleteOne({ _id: 2 }, { session });
      const events: string[] = [];
      // matches 1 by its committed version: waits, then finds nothing to change
      const update = main.items.updateMany({ n: { $lt: 2 } }, { $set: { low: true } }).then((r) => {
        events.push('update');
        return r.matchedCount;
      });
      // matches the deleted 2 by its committed version: waits, then finds it gone
      const remove = main.items.deleteOne({ slug: 'b' }).then((r) => {
        events.push('delete');
        return r.deletedCount;
      });
      // documents the transaction did not write are free
      await main.items.updateOne({ _id: 3 }, { $set: { free: true } });
      await new Promise((r) => setTimeout(r, 50));
      events.push('commit');
      await session.commitTransaction();
      expect(await Promise.all([update, remove])).to.deep.equal([0, 0]);
      expect(events).to.deep.equal(['commit', 'update', 'delete']);
    });
    await inTransaction(async (session) => {
      await main.items.updateOne({ _id: 4 }, { $set: { n: 40 } }, { session });
      const update = main.items.updateMany({ n: { $lt: 5 } }, { $set: { low: true } });
      await new Promise((r) => setTimeout(r, 50));
      await session.abortTransaction();
      expect((await update).modifiedCount).to.equal(2); // 3 and 4 (1 moved away, 2 deleted above)
    });
    await inTransaction(async (session) => {
      await main.items.updateOne({ _id: 5 }, { $set: { n: 0 } }, { session });
      await inTransaction(async (other) => {
        const err = await main.items
          .updateMany({ n: { $gte: 5 } }, { $set: { high: true } }, { session: other })
          .catch((e: MongoServerError) => e);
        expect((err as MongoServerError).code).to.equal(112);
        expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).to.equal(true);
      });
      await session.abortTransaction();
    });
  });

  describe('a unique key an open transaction took', () => {
    const duplicate = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as MongoServerError).code;

    it('an insert or update taking it waits: 11000 after the commit, done after an abort', async () => {
      const main = await pair();
      await inTransaction(async (session) => {
        await main.items.insertOne({ _id: 20, slug: 'taken' }, { session });
        await main.items.updateOne({ _id: 1 }, { $set: { slug: 'moved' } }, { session });
        let settled = 0;
        const insert = main.items.insertOne({ _id: 21, slug: 'taken' }).finally(() => settled++);
        const update = main.items.updateOne({ _id: 2 }, { $set: { slug: 'moved' } }).finally(() => settled++);
        await new Promise((r) => setTimeout(r, 50));
        expect(settled).to.equal(0);
        await session.commitTransaction();
        expect([await duplicate(insert), await duplicate(update)]).to.deep.equal([11000, 11000]);
      });
      await inTransaction(async (session) => {
        await main.items.insertOne({ _id: 22, slug: 'again' }, { session });
        await main.items.updateOne({ _id: 3 }, { $set: { slug: 'elsewhere' } }, { session });
        const insert = main.items.insertOne({ _id: 23, slug: 'again' });
        const update = main.items.updateOne({ _id: 4 }, { $set: { slug: 'elsewhere' } });
        await new Promise((r) => setTimeout(r, 50));
        await session.abortTransaction();
        await insert;
        expect((await update).modifiedCount).to.equal(1);
      });
      expect(
        await main.items
          .find({ slug: { $in: ['taken', 'moved', 'again', 'elsewhere'] } })
          .sort({ _id: 1 })
          .toArray(),
      ).to.deep.equal([
        { _id: 1, slug: 'moved', n: 1, title: 'Apple pie', tags: ['red', 'sweet'], owner: 1 },
        { _id: 4, slug: 'elsewhere', n: 4, title: 'date loaf', tags: [], owner: 2 },
        { _id: 20, slug: 'taken' },
        { _id: 23, slug: 'again' },
      ]);
    });

    it('with maxTimeMS the waiting write gives up with 50, changing nothing', async () => {
      const main = await pair();
      await inTransaction(async (session) => {
        await main.items.insertOne({ _id: 20, slug: 'taken' }, { session });
        expect(await duplicate(main.items.insertOne({ _id: 21, slug: 'taken' }, { maxTimeMS: 50 }))).to.equal(50);
        await session.abortTransaction();
      });
      expect(await main.items.countDocuments({ _id: { $in: [20, 21] } })).to.equal(0);
    });

    it('another transaction taking it gets WriteConflict (112, TransientTransactionError)', async () => {
      const main = await pair();
      await inTransaction(async (session) => {
        await main.items.insertOne({ _id: 20, slug: 'taken' }, { session });
        await inTransaction(async (other) => {
          const err = await main.items
            .insertOne({ _id: 21, slug: 'taken' }, { session: other })
            .catch((e: MongoServerError) => e);
          expect((err as MongoServerError).code).to.equal(112);
          expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).to.equal(true);
        });
        await session.commitTransaction();
      });
    });
  });
});
