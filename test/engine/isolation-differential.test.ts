// Read committed, differentially: random transactions (inserts, updates of indexed values and sort
// keys, multi-document updates, deletes) are left open while random reads (filters on single,
// compound, multikey and substring-indexed fields, sorted pages, counts, distinct, aggregations,
// joins into the written collection) run outside them; every answer must equal the same read on a
// copy holding only the committed data. Each transaction then commits (its writes are applied to
// the copy) or aborts, and the two must agree again.
import { expect } from 'chai';
import { MongoClient, type ClientSession, type Collection, type Document, type Filter, type Sort } from 'mongodb';
import { startEngine, type Engine } from '../../src/engine/index.js';
import { Random } from '../../scripts/fuzz/random.js';

type Doc = Document & { _id: number };
type Write = (items: Collection<Doc>, session?: ClientSession) => Promise<unknown>;
type Read = (items: Collection<Doc>, owners: Collection<Doc>) => Promise<unknown>;

const WORDS = ['apple', 'Apricot', 'banana', 'cherry', 'grape', 'Papaya', 'pear', 'plum'];
const LITERALS = ['ap', 'AP', 'pear', 'an', 'rr', 'ple'];
const SORT_FIELDS = ['n', 's', 'title', 'owner', 'tags'];

describe('engine: read committed, differential', function () {
  this.timeout(120_000);
  let engine: Engine;
  let client: MongoClient;

  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // a standalone mongod has no transactions
    engine = await startEngine({ transactionLifetimeMs: 30_000 });
    client = await MongoClient.connect(engine.uri);
  });
  after(async () => {
    await client?.close();
    await engine?.stop();
  });

  it('reads during open transactions answer what a copy with only the committed data answers', async () => {
    const seed = Number(process.env.ISOLATION_SEED ?? Date.now() % 100_000);
    const source = new Random(seed);
    const random = () => source.next();
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
    let nextId = 1;

    const doc = (): Doc => {
      const d: Doc = {
        _id: nextId++,
        n: int(16),
        s: pick(['a', 'b', 'c', 'd']),
        title: `${pick(WORDS)} ${pick(WORDS)}`,
        tags: ['x', 'y', 'z'].filter(() => random() < 0.4),
      };
      if (random() < 0.8) d.owner = 1 + int(4);
      return d;
    };
    const filter = (): Filter<Doc> =>
      pick<() => Filter<Doc>>([
        () => ({}),
        () => ({ n: { $gte: int(8), $lt: 4 + int(12) } }),
        () => ({ s: pick(['a', 'b', 'c', 'd']) }),
        () => ({ s: pick(['a', 'b']), n: { $gt: int(12) } }),
        () => ({ s: { $in: ['a', pick(['b', 'c', 'd'])] } }),
        () => ({ tags: pick(['x', 'y', 'z']) }),
        () => ({ title: { $regex: pick(LITERALS), $options: 'i' } }),
        () => ({ title: { $regex: pick(LITERALS) } }),
        () => ({ title: { $regex: pick(LITERALS), $options: 'i' }, n: { $lte: int(16) } }),
        () => ({ $or: [{ n: int(16) }, { s: pick(['a', 'b', 'c', 'd']) }] }),
        () => ({ _id: { $in: [1 + int(nextId), 1 + int(nextId), 1 + int(nextId)] } }),
        () => ({ owner: { $exists: false } }),
        () => ({ owner: 1 + int(4), n: { $ne: int(16) } }),
      ])();
    const sort = (): Sort => {
      const out: Record<string, 1 | -1> = {};
      for (let i = 0; i < 1 + int(2); i++) out[pick(SORT_FIELDS)] = random() < 0.5 ? 1 : -1;
      return { ...out, _id: random() < 0.5 ? 1 : -1 };
    };
    const ids = (docs: Doc[]) => docs.map((d) => d._id);
    const byId = (docs: Doc[]) => ids(docs).sort((a, b) => a - b);

    const write = (): Write => {
      const id = 1 + int(nextId);
      return pick<() => Write>([
        () => {
          const d = doc();
          return (c, session) => c.insertOne(d, { session });
        },
        () => {
          const set: Document = random() < 0.5 ? { n: int(16) } : { s: pick(['a', 'b', 'c', 'd']) };
          if (random() < 0.5) set.title = `${pick(WORDS)} ${pick(WORDS)}`;
          if (random() < 0.3) set.tags = ['x', 'y', 'z'].filter(() => random() < 0.5);
          return (c, session) => c.updateOne({ _id: id }, { $set: set }, { session });
        },
        () => {
          const below = int(16);
          return (c, session) => c.updateMany({ n: { $lt: below } }, { $inc: { n: 3 } }, { session });
        },
        () => (c, session) => c.updateOne({ _id: id }, { $unset: { owner: '' } }, { session }),
        () => (c, session) => c.deleteOne({ _id: id }, { session }),
        () => {
          const s = pick(['a', 'b', 'c', 'd']);
          const above = 10 + int(6);
          return (c, session) => c.deleteMany({ s, n: { $gt: above } }, { session });
        },
      ])();
    };
    const read = (): { name: string; run: Read } => {
      const f = filter();
      const s = sort();
      const skip = int(3);
      const limit = 1 + int(6);
      const text = JSON.stringify({ f, s, skip, limit });
      return pick<() => { name: string; run: Read }>([
        () => ({
          name: `find ${text}`,
          run: async (c) => ids(await c.find(f).sort(s).skip(skip).limit(limit).toArray()),
        }),
        () => ({ name: `find all ${text}`, run: async (c) => c.find(f).sort(s).toArray() }),
        () => ({ name: `find unsorted ${text}`, run: async (c) => byId(await c.find(f).toArray()) }),
        () => ({ name: `find limit ${text}`, run: async (c) => (await c.find(f).limit(limit).toArray()).length }),
        () => ({ name: `count ${text}`, run: async (c) => c.countDocuments(f) }),
        () => ({
          name: `count command ${text}`,
          run: async (c) => (await c.db.command({ count: c.collectionName, query: f })).n,
        }),
        () => ({ name: `distinct ${text}`, run: async (c) => (await c.distinct('n', f)).sort() }),
        () => ({
          name: `aggregate page ${text}`,
          run: async (c) =>
            ids(await c.aggregate<Doc>([{ $match: f }, { $sort: s }, { $skip: skip }, { $limit: limit }]).toArray()),
        }),
        () => ({
          name: `aggregate count ${text}`,
          run: async (c) => c.aggregate([{ $match: f }, { $count: 'n' }]).toArray(),
        }),
        () => ({
          name: `join ${text}`,
          run: async (c, owners) =>
            (
              await owners
                .aggregate([
                  { $sort: { _id: 1 } },
                  { $lookup: { from: c.collectionName, localField: '_id', foreignField: 'owner', as: 'items' } },
                ])
                .toArray()
            ).map((o) => ({ _id: o._id, items: byId(o.items as Doc[]) })),
        }),
        () => ({
          name: `join pipeline ${text}`,
          run: async (c, owners) =>
            owners
              .aggregate([
                { $sort: { _id: 1 } },
                {
                  $lookup: {
                    from: c.collectionName,
                    localField: '_id',
                    foreignField: 'owner',
                    pipeline: [{ $match: f }, { $sort: s }, { $limit: limit }, { $project: { _id: 1 } }],
                    as: 'items',
                  },
                },
              ])
              .toArray(),
        }),
      ])();
    };

    const db = client.db('isolation_differential');
    const main = db.collection<Doc>('items');
    const copy = db.collection<Doc>('items_committed');
    const owners = db.collection<Doc>('owners');
    for (const c of [main, copy]) {
      await c.createIndex({ n: 1 });
      await c.createIndex({ s: 1, n: 1 });
      await c.createIndex({ title: 1 });
      await c.createIndex({ tags: 1 });
      await c.createIndex({ owner: 1 });
    }
    await owners.insertMany([1, 2, 3, 4].map((_id) => ({ _id })));
    const initial = Array.from({ length: 60 }, doc);
    await main.insertMany(initial);
    await copy.insertMany(initial);

    let compared = 0;
    for (let round = 0; round < 40; round++) {
      const writes = Array.from({ length: 1 + int(6) }, write);
      const session = client.startSession();
      try {
        session.startTransaction();
        for (const w of writes) await w(main, session);
        for (let r = 0; r < 12; r++) {
          const { name, run } = read();
          expect(await run(main, owners), `seed ${seed}, round ${round}: ${name}`).to.deep.equal(
            await run(copy, owners),
          );
          compared++;
        }
        if (random() < 0.6) {
          await session.commitTransaction();
          for (const w of writes) await w(copy);
        } else await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      expect(await main.find().sort({ _id: 1 }).toArray(), `seed ${seed}, round ${round}: after`).to.deep.equal(
        await copy.find().sort({ _id: 1 }).toArray(),
      );
    }
    expect(compared).to.equal(40 * 12);
  });
});
