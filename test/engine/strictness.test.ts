// Options that change results are honoured or refused, never stored and ignored: hidden indexes,
// hints, unknown fields (mongod's answers, so this suite also runs against a real mongod), and
// the features the engine has not (refused with 115; that part is about the engine only).
import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { indexUsed } from './helpers/explain.js';
import { type AnyDoc, serverError, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: nothing silently accepted', () => {
  let server: TestServer;
  let c: Collection<AnyDoc>;
  before(async () => {
    server = await startTestServer('strict');
    c = server.db.collection<AnyDoc>('items');
    await c.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, a: i % 5, b: i })));
    await c.createIndex({ a: 1 });
    await c.createIndex({ b: 1 });
  });
  after(async () => {
    await server.stop();
  });

  it('a hint picks the index; a hint naming no index is refused with 2', async () => {
    const hinted = await c
      .find({ a: 1, b: { $gte: 0 } })
      .hint('b_1')
      .explain('queryPlanner');
    expect(indexUsed(hinted)).to.equal('b_1');
    expect(await c.find({ a: 1 }).hint({ b: 1 }).toArray()).to.have.length(10);
    expect(await c.countDocuments({ a: 1 }, { hint: 'b_1' })).to.equal(10);
    const natural = await c.find({ a: 1 }).hint({ $natural: 1 }).explain('queryPlanner');
    expect(indexUsed(natural)).to.equal(undefined);
    expect((await serverError(c.find({ a: 1 }).hint('nope_1').toArray())).code).to.equal(2);
    expect((await serverError(c.aggregate([{ $match: { a: 1 } }], { hint: { zzz: 1 } }).toArray())).code).to.equal(2);
    expect((await serverError(c.updateOne({ a: 1 }, { $set: { x: 1 } }, { hint: 'nope_1' }))).code).to.equal(2);
    expect((await serverError(c.deleteOne({ a: 1 }, { hint: 'nope_1' }))).code).to.equal(2);
    expect(await c.countDocuments({ x: 1 })).to.equal(0);
  });

  it('a hidden index is kept but not used by queries, and can be unhidden', async () => {
    await c.createIndex({ a: 1, b: 1 }, { hidden: true });
    const spec = (await c.indexes()).find((ix) => ix.name === 'a_1_b_1');
    expect(spec?.hidden).to.equal(true);
    await server.db.command({ collMod: 'items', index: { name: 'a_1', hidden: true } });
    const explain = await c.find({ a: 2 }).explain('queryPlanner');
    expect(indexUsed(explain)).to.equal(undefined);
    expect(await c.countDocuments({ a: 2 })).to.equal(10);
    expect((await serverError(c.find({ a: 2 }).hint('a_1').toArray())).code).to.equal(2);
    const reply = await server.db.command({ collMod: 'items', index: { name: 'a_1', hidden: false } });
    expect(reply).to.include({ hidden_old: true, hidden_new: false });
    expect((await c.indexes()).map((ix) => ix.name)).to.deep.equal(['_id_', 'a_1', 'b_1', 'a_1_b_1']);
    expect(indexUsed(await c.find({ a: 2 }).explain('queryPlanner'))).to.be.oneOf(['a_1', 'a_1_b_1', undefined]);
    expect(indexUsed(await c.find({ a: 2 }).hint('a_1').explain('queryPlanner'))).to.equal('a_1');
  });

  it('let variables reach the filters and update pipelines of writes', async () => {
    const w = server.db.collection<AnyDoc>('lets');
    await w.insertMany([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
      { _id: 3, a: 3 },
    ]);
    const byVar = { $expr: { $eq: ['$a', '$$v'] } };
    await w.updateMany(byVar, [{ $set: { b: '$$label' } }], { let: { v: 2, label: 'two' } });
    await w.findOneAndUpdate(byVar, { $set: { c: 1 } }, { let: { v: 3 } });
    await w.deleteMany(byVar, { let: { v: 1 } });
    expect(await w.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
      { _id: 2, a: 2, b: 'two' },
      { _id: 3, a: 3, c: 1 },
    ]);
  });

  it('unknown fields of find and create are refused with 40415', async () => {
    const find = await serverError(server.db.command({ find: 'items', filter: {}, bogus: 1 }));
    expect(find.code).to.equal(40415);
    const create = await serverError(server.db.command({ create: 'x1', bogus: true }));
    expect(create.code).to.equal(40415);
  });
});

describe('engine: features it has not are refused (115)', () => {
  let server: TestServer;
  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own limits
    server = await startTestServer('unsupported');
  });
  after(async () => {
    await server?.stop();
  });

  it('capped, clustered, collated collections and tailable cursors', async () => {
    for (const options of [
      { capped: true, size: 4096 },
      { clusteredIndex: { key: { _id: 1 }, unique: true } },
      { collation: { locale: 'fr' } },
      { changeStreamPreAndPostImages: { enabled: true } },
    ]) {
      const err = await serverError(server.db.command({ create: 'never', ...options }));
      expect(err.code, JSON.stringify(options)).to.equal(115);
    }
    expect(await server.db.listCollections({ name: 'never' }).toArray()).to.have.length(0);
    await server.db.collection<AnyDoc>('t').insertOne({ _id: 1 });
    const tailable = await serverError(server.db.command({ find: 't', tailable: true }));
    expect(tailable.code).to.equal(115);
    const returnKey = await serverError(server.db.command({ find: 't', returnKey: true }));
    expect(returnKey.code).to.equal(115);
    const mapReduce = await serverError(
      server.db.command({
        explain: { mapReduce: 't', map: 'function () {}', reduce: 'function () {}', out: { inline: 1 } },
      }),
    );
    expect(mapReduce.code).to.equal(115);
  });
});
