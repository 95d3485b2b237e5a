import { expect } from 'chai';
import { Long, MongoBulkWriteError, MongoServerError, ObjectId } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

interface Upd {
  _id: number;
  tags?: string[];
  n?: number;
  items?: Array<{ k: number; v: number }>;
  seen?: boolean;
  a?: number;
  created?: boolean;
  replaced?: boolean;
  x?: number;
}

describe('engine: CRUD commands and cursors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('crud');
  });
  after(async () => {
    await server.stop();
  });

  it('inserts with generated ObjectIds and finds with filter, sort, projection, skip and limit', async () => {
    const c = server.db.collection<AnyDoc>('people');
    const res = await c.insertMany([
      { name: 'b', age: 30 },
      { name: 'a', age: 40 },
      { name: 'c', age: 20 },
      { name: 'd' },
    ]);
    expect(res.insertedCount).to.equal(4);
    expect(res.insertedIds[0]).to.be.instanceOf(ObjectId);
    const docs = await c
      .find({ age: { $gte: 20 } }, { projection: { _id: 0, name: 1 } })
      .sort({ age: -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(docs).to.deep.equal([{ name: 'b' }, { name: 'c' }]);
    const asc = await c
      .find({}, { projection: { _id: 0, name: 1 } })
      .sort({ age: 1 })
      .toArray();
    expect(asc.map((d) => d.name)).to.deep.equal(['d', 'c', 'b', 'a']);
  });

  it('returns results in several batches through getMore and closes cursors', async () => {
    const c = server.db.collection<AnyDoc>('many');
    await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i, v: i % 7 })));
    const cursor = c.find({}).sort({ _id: 1 }).batchSize(40);
    const all = await cursor.toArray();
    expect(all).to.have.length(250);
    expect(all[249]._id).to.equal(249);
    const first = await server.db.command({ find: 'many', filter: {}, batchSize: 10 });
    expect(first.cursor.firstBatch).to.have.length(10);
    expect(first.cursor.id).to.be.instanceOf(Long);
    expect(Number(first.cursor.id)).not.to.equal(0);
    const more = await server.db.command({ getMore: first.cursor.id, collection: 'many', batchSize: 100 });
    expect(more.cursor.nextBatch).to.have.length(100);
    const killed = await server.db.command({ killCursors: 'many', cursors: [first.cursor.id] });
    expect(killed.cursorsKilled).to.have.length(1);
    const err = await server.db.command({ getMore: first.cursor.id, collection: 'many' }).catch((e: unknown) => e);
    expect((err as MongoServerError).code).to.equal(43);
    const single = await server.db.command({ find: 'many', filter: {}, batchSize: 5, singleBatch: true });
    expect(Number(single.cursor.id)).to.equal(0);
    const dflt = await server.db.command({ find: 'many', filter: {} });
    expect(dflt.cursor.firstBatch).to.have.length(101);
    await server.db.command({ killCursors: 'many', cursors: [dflt.cursor.id] });
  });

  it('gives cursor ids at or above 2^53, so drivers never promote them to numbers', async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < 200; i++) {
      const { cursor } = await server.db.command({ find: 'many', filter: {}, batchSize: 1 });
      ids.push(cursor.id);
      await server.db.command({ killCursors: 'many', cursors: [cursor.id] });
    }
    for (const id of ids) {
      expect(id).to.be.instanceOf(Long);
      expect((id as Long).greaterThanOrEqual(Long.fromNumber(2 ** 53))).to.equal(true);
    }
  });

  it('counts and distinct', async () => {
    const c = server.db.collection<AnyDoc>('many');
    expect(await c.countDocuments({ v: 3 })).to.equal(36);
    expect(await c.estimatedDocumentCount()).to.equal(250);
    expect((await server.db.command({ count: 'many', query: { v: { $lt: 2 } } })).n).to.equal(72);
    const values = await c.distinct('v');
    expect([...values].sort()).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
  });

  it('updates: operators, multi, upsert with $setOnInsert, arrayFilters, replacement', async () => {
    const c = server.db.collection<Upd>('upd');
    await c.insertMany([
      {
        _id: 1,
        tags: ['a'],
        n: 1,
        items: [
          { k: 1, v: 0 },
          { k: 2, v: 0 },
        ],
      },
      { _id: 2, tags: [], n: 2 },
    ]);
    const conflict = await c
      .updateOne({ _id: 1 }, { $push: { tags: 'b' }, $addToSet: { tags: 'a' } })
      .catch((e: unknown) => e);
    expect((conflict as MongoServerError).code).to.equal(40);
    const r1 = await c.updateOne({ _id: 1 }, { $push: { tags: 'b' }, $inc: { n: 5 } });
    expect(r1.matchedCount).to.equal(1);
    expect(r1.modifiedCount).to.equal(1);
    const r2 = await c.updateMany({}, { $set: { seen: true } });
    expect(r2.modifiedCount).to.equal(2);
    const r3 = await c.updateOne({ _id: 3 }, { $set: { a: 1 }, $setOnInsert: { created: true } }, { upsert: true });
    expect(r3.upsertedId).to.equal(3);
    expect(await c.findOne({ _id: 3 })).to.deep.equal({ _id: 3, a: 1, created: true });
    await c.updateOne({ _id: 3 }, { $set: { a: 2 }, $setOnInsert: { created: false } }, { upsert: true });
    expect(await c.findOne({ _id: 3 })).to.deep.equal({ _id: 3, a: 2, created: true });
    await c.updateOne({ _id: 1 }, { $set: { 'items.$[it].v': 9 } }, { arrayFilters: [{ 'it.k': 2 }] });
    expect((await c.findOne({ _id: 1 }))?.items).to.deep.equal([
      { k: 1, v: 0 },
      { k: 2, v: 9 },
    ]);
    await c.updateOne({ _id: 1 }, { $pull: { tags: 'a' } });
    expect((await c.findOne({ _id: 1 }))?.tags).to.deep.equal(['b']);
    await c.replaceOne({ _id: 2 }, { replaced: true });
    expect(await c.findOne({ _id: 2 })).to.deep.equal({ _id: 2, replaced: true });
    const same = await c.updateOne({ _id: 2 }, { $set: { replaced: true } });
    expect(same.modifiedCount).to.equal(0);
  });

  it('refuses to change _id (66 ImmutableField)', async () => {
    const c = server.db.collection<Upd>('upd');
    const e1 = await c.updateOne({ _id: 1 }, { $set: { _id: 99 } }).catch((e: unknown) => e);
    expect((e1 as MongoServerError).code).to.equal(66);
    const e2 = await server.db
      .collection<AnyDoc>('upd')
      .replaceOne({ _id: 1 }, { _id: 98, x: 1 })
      .catch((e: unknown) => e);
    expect((e2 as MongoServerError).code).to.equal(66);
  });

  it('rejects unknown update operators (9)', async () => {
    const err = await server.db
      .collection<AnyDoc>('upd')
      .updateOne({ _id: 1 }, { $frobnicate: { a: 1 } } as never)
      .catch((e: unknown) => e);
    expect((err as MongoServerError).code).to.equal(9);
  });

  it('counters: findOneAndUpdate $inc with upsert returns the new document', async () => {
    const c = server.db.collection<{ _id: string; seq: number }>('counters');
    const a = await c.findOneAndUpdate(
      { _id: 'post' },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    const b = await c.findOneAndUpdate(
      { _id: 'post' },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(a).to.deep.equal({ _id: 'post', seq: 1 });
    expect(b).to.deep.equal({ _id: 'post', seq: 2 });
    const before = await c.findOneAndUpdate(
      { _id: 'post' },
      { $inc: { seq: 1 } },
      { returnDocument: 'before', includeResultMetadata: true },
    );
    expect(before.value).to.deep.equal({ _id: 'post', seq: 2 });
    expect(before.lastErrorObject?.updatedExisting).to.equal(true);
    const removed = await c.findOneAndDelete({ _id: 'post' });
    expect(removed?.seq).to.equal(3);
    expect(await c.findOneAndUpdate({ _id: 'none' }, { $inc: { seq: 1 } })).to.equal(null);
  });

  it('deletes one and many', async () => {
    const c = server.db.collection<AnyDoc>('del');
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await c.deleteOne({ k: 1 })).deletedCount).to.equal(1);
    expect((await c.deleteMany({})).deletedCount).to.equal(2);
    expect((await c.deleteMany({ k: 5 })).deletedCount).to.equal(0);
  });

  it('reports ordered and unordered write errors as MongoDB does', async () => {
    const c = server.db.collection<AnyDoc>('werr');
    await c.insertOne({ _id: 1 });
    const ordered = await c.insertMany([{ _id: 2 }, { _id: 1 }, { _id: 3 }]).catch((e: unknown) => e);
    expect(ordered).to.be.instanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).insertedCount).to.equal(1);
    expect((ordered as MongoBulkWriteError).writeErrors).to.have.length(1);
    expect(await c.countDocuments({ _id: 3 })).to.equal(0);
    const unordered = await c
      .insertMany([{ _id: 4 }, { _id: 1 }, { _id: 2 }, { _id: 5 }], { ordered: false })
      .catch((e: unknown) => e);
    const errs = [(unordered as MongoBulkWriteError).writeErrors].flat();
    expect(errs.map((e) => [e.index, e.code])).to.deep.equal([
      [1, 11000],
      [2, 11000],
    ]);
    expect(await c.countDocuments({})).to.equal(4);
  });

  it('the positional $ updates the array element the query matched', async () => {
    const c = server.db.collection<AnyDoc>('positional');
    await c.insertOne({ _id: 1, items: [{ k: 1 }, { k: 2 }, { k: 3 }] });
    await c.updateOne({ 'items.k': 2 }, { $set: { 'items.$.v': 'x' } });
    expect((await c.findOne({ _id: 1 }))?.items).to.deep.equal([{ k: 1 }, { k: 2, v: 'x' }, { k: 3 }]);
  });
});
