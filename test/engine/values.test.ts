import { expect } from 'chai';
import { Decimal128, Double, Int32, Long, MaxKey, MinKey, MongoServerError, ObjectId } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: BSON values, comparison and the mingo gaps', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('values');
  });
  after(async () => {
    await server.stop();
  });

  it('sorts across BSON types in MongoDB order, missing and null first ascending', async () => {
    const c = server.db.collection<AnyDoc>('mixed');
    const oid = new ObjectId();
    await c.insertMany([
      { _id: 1, v: 'b' },
      { _id: 2, v: 5 },
      { _id: 3, v: null },
      { _id: 4 },
      { _id: 5, v: { a: 1 } },
      { _id: 6, v: true },
      { _id: 7, v: new Date(0) },
      { _id: 8, v: oid },
      { _id: 9, v: new MaxKey() },
      { _id: 10, v: new MinKey() },
      { _id: 11, v: Long.fromNumber(3) },
      { _id: 12, v: 4.5 },
      { _id: 13, v: Decimal128.fromString('4.7') },
    ]);
    const asc = (await c.find({}).sort({ v: 1, _id: 1 }).toArray()).map((d) => d._id);
    expect(asc).to.deep.equal([10, 3, 4, 11, 12, 13, 2, 1, 5, 8, 6, 7, 9]);
    const desc = (await c.find({}).sort({ v: -1, _id: 1 }).toArray()).map((d) => d._id);
    expect(desc).to.deep.equal([9, 7, 6, 8, 5, 1, 2, 13, 12, 11, 3, 4, 10]);
  });

  it('compares numbers by value across int32, int64, double and Decimal128 (query and $expr)', async () => {
    const c = server.db.collection<AnyDoc>('nums');
    await c.insertMany([
      { _id: 'i', n: new Int32(10) },
      { _id: 'l', n: Long.fromString('10') },
      { _id: 'd', n: new Double(10.5) },
      { _id: 'm', n: Decimal128.fromString('9.99') },
      { _id: 's', n: '10' },
    ]);
    const eq = (await c.find({ n: 10 }).toArray()).map((d) => d._id).sort();
    expect(eq).to.deep.equal(['i', 'l']);
    const gt = (await c.find({ n: { $gt: Decimal128.fromString('9.995') } }).toArray()).map((d) => d._id).sort();
    expect(gt).to.deep.equal(['d', 'i', 'l']);
    const lt = (await c.find({ n: { $lt: Long.fromNumber(10) } }).toArray()).map((d) => d._id);
    expect(lt).to.deep.equal(['m']);
    const inList = (await c.find({ n: { $in: [Long.fromNumber(10), 7] } }).toArray()).map((d) => d._id).sort();
    expect(inList).to.deep.equal(['i', 'l']);
    const expr = await c.aggregate([{ $match: { $expr: { $gte: ['$n', 10] } } }, { $sort: { _id: 1 } }]).toArray();
    expect(expr.map((d) => d._id)).to.deep.equal(['d', 'i', 'l', 's']); // strings sort above numbers
    const sorted = (
      await c
        .find({ _id: { $ne: 's' } })
        .sort({ n: 1 })
        .toArray()
    ).map((d) => d._id);
    expect(sorted.slice(0, 1)).to.deep.equal(['m']);
    expect(sorted[3]).to.equal('d');
  });

  it('keeps int64 and Decimal128 types through storage and $inc', async () => {
    const c = server.db.collection<AnyDoc>('types');
    await c.insertOne({ _id: 1, big: Long.fromString('9007199254740993'), dec: Decimal128.fromString('1.10') });
    await c.updateOne({ _id: 1 }, { $inc: { big: Long.fromNumber(1) } });
    const doc = await c.findOne({ _id: 1 }, { promoteLongs: false });
    expect(doc?.big).to.be.instanceOf(Long);
    expect(String(doc?.big)).to.equal('9007199254740994');
    expect(doc?.dec).to.be.instanceOf(Decimal128);
    const types = await c
      .aggregate([{ $project: { _id: 0, b: { $type: '$big' }, d: { $type: '$dec' }, m: { $type: '$nope' } } }])
      .toArray();
    expect(types).to.deep.equal([{ b: 'long', d: 'decimal', m: 'missing' }]);
  });

  it('matches $type on BSON values (query) and converts with $toString / $toObjectId', async () => {
    const c = server.db.collection<AnyDoc>('conv');
    const oid = new ObjectId('64b7f0c2a1b2c3d4e5f60718');
    await c.insertMany([
      { _id: 1, v: oid },
      { _id: 2, v: Long.fromNumber(5) },
      { _id: 3, v: 5 },
      { _id: 4, v: Decimal128.fromString('1') },
      { _id: 5, v: 'x' },
    ]);
    expect((await c.find({ v: { $type: 'objectId' } }).toArray()).map((d) => d._id)).to.deep.equal([1]);
    expect((await c.find({ v: { $type: 'long' } }).toArray()).map((d) => d._id)).to.deep.equal([2]);
    expect((await c.find({ v: { $type: 'number' } }).toArray()).map((d) => d._id)).to.deep.equal([2, 3, 4]);
    expect((await c.find({ v: { $type: 19 } }).toArray()).map((d) => d._id)).to.deep.equal([4]);
    const out = await c
      .aggregate([
        { $match: { _id: 1 } },
        {
          $project: { _id: 0, s: { $toString: '$v' }, back: { $toObjectId: { $toString: '$v' } }, n: { $toString: 7 } },
        },
      ])
      .toArray();
    expect(out[0].s).to.equal('64b7f0c2a1b2c3d4e5f60718');
    expect(out[0].back).to.be.instanceOf(ObjectId);
    expect(out[0].back.equals(oid)).to.equal(true);
    expect(out[0].n).to.equal('7');
    const bad = await c
      .aggregate([{ $project: { o: { $toObjectId: 'nope' } } }])
      .toArray()
      .catch((e: unknown) => e);
    expect((bad as MongoServerError).code).to.equal(241);
  });

  it('sorts strings in binary (code point) order', async () => {
    const c = server.db.collection<AnyDoc>('strings');
    const words = ['b', 'B', 'a', 'é', 'e', '\u{1F600}', '\uFF21', 'Z', ''];
    await c.insertMany(words.map((w, i) => ({ _id: i, w })));
    const sorted = (await c.find({}).sort({ w: 1 }).toArray()).map((d) => d.w);
    expect(sorted).to.deep.equal(['', 'B', 'Z', 'a', 'b', 'e', 'é', '\uFF21', '\u{1F600}']);
  });

  it('applies a collation to matching as well as sorting', async () => {
    const c = server.db.collection<AnyDoc>('strings');
    const found = await c.find({ w: 'E' }, { collation: { locale: 'en', strength: 2 } }).toArray();
    expect(found.map((d) => d.w)).to.deep.equal(['e']);
    const primary = await c.find({ w: 'e' }, { collation: { locale: 'en', strength: 1 } }).toArray();
    expect(primary.map((d) => d.w).sort()).to.deep.equal(['e', 'é']);
    const sorted = (
      await c
        .find({ w: { $in: ['a', 'B', 'b'] } })
        .collation({ locale: 'en' })
        .sort({ w: 1 })
        .toArray()
    ).map((d) => d.w);
    expect(sorted).to.deep.equal(['a', 'b', 'B']);
  });

  it('supports the regex x (extended) flag and rejects unknown flags with 51108', async () => {
    const c = server.db.collection<AnyDoc>('strings');
    const x = await c.find({ w: { $regex: ' ^ [ab]  # letters a or b\n $', $options: 'x' } }).toArray();
    expect(x.map((d) => d.w).sort()).to.deep.equal(['a', 'b']);
    const bad = await c
      .find({ w: { $regex: 'a', $options: 'q' } })
      .toArray()
      .catch((e: unknown) => e);
    expect((bad as MongoServerError).code).to.equal(51108);
  });

  it('finds by $in over ObjectIds quickly and correctly', async () => {
    const c = server.db.collection<AnyDoc>('oids');
    const docs = Array.from({ length: 2000 }, () => ({ _id: new ObjectId(), ref: new ObjectId() }));
    await c.insertMany(docs);
    const wanted = docs.filter((_, i) => i % 10 === 0).map((d) => d.ref);
    const started = Date.now();
    const found = await c.find({ ref: { $in: wanted } }).toArray();
    expect(found).to.have.length(200);
    expect(Date.now() - started).to.be.below(1000);
  });

  it('never lets a query or pipeline change stored documents', async () => {
    const c = server.db.collection<AnyDoc>('immutable');
    await c.insertOne({ _id: 1, nested: { a: 1 }, list: [{ x: 1 }] });
    await c
      .aggregate([
        { $addFields: { 'nested.b': 2, extra: 1 } },
        { $set: { list: { $map: { input: '$list', in: { x: { $add: ['$$this.x', 1] } } } } } },
        { $unwind: '$list' },
        { $project: { nested: 0 } },
      ])
      .toArray();
    await c
      .aggregate([
        { $lookup: { from: 'immutable', localField: '_id', foreignField: '_id', as: 'self' } },
        { $set: { 'self.nested.c': 3 } },
      ])
      .toArray();
    await c.find({}, { projection: { 'nested.a': 0 } }).toArray();
    await c.aggregate([{ $unset: ['nested.a', 'list.x'] }]).toArray();
    await c.aggregate([{ $project: { nested: { a: 0 } } }]).toArray();
    expect(await c.findOne({ _id: 1 })).to.deep.equal({ _id: 1, nested: { a: 1 }, list: [{ x: 1 }] });
  });
});
