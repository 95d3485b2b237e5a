import { expect } from 'chai';
import { MongoClient, type Collection } from 'mongodb';
import { startEngine } from '../../src/engine/index.js';
import { startTestServer, type AnyDoc, type TestServer } from './helpers/server.js';

const N = 10_000;
/** A filter costly for every document (builds a 2,000-element array each time). */
const SLOW = { $expr: { $gt: [{ $size: { $range: [0, 2000] } }, 0] } };

async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  return p.then(
    () => undefined,
    (e: { code?: number }) => e.code,
  );
}

describe('engine: maxTimeMS and the time budget of a command', function () {
  this.timeout(60_000);
  let server: TestServer;
  let coll: Collection<AnyDoc>;
  before(async () => {
    server = await startTestServer('budget');
    coll = server.db.collection<AnyDoc>('docs');
    await coll.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, n: i, group: i % 10 })));
  });
  after(() => server.stop());

  it('find, aggregate, count and distinct over budget fail with MaxTimeMSExpired (50)', async () => {
    for (const run of [
      () => coll.find(SLOW, { maxTimeMS: 20 }).toArray(),
      () => coll.aggregate([{ $match: SLOW }], { maxTimeMS: 20 }).toArray(),
      () => coll.countDocuments(SLOW, { maxTimeMS: 20 }),
      () => coll.distinct('group', SLOW, { maxTimeMS: 20 }),
    ]) {
      const err = await run().then(
        () => undefined,
        (e: { code?: number; codeName?: string; message?: string }) => e,
      );
      expect(err?.code).to.equal(50);
      expect(err?.codeName).to.equal('MaxTimeMSExpired');
      expect(err?.message).to.equal('operation exceeded time limit');
    }
  });

  it('update, delete and findAndModify over budget fail with 50 and change nothing', async () => {
    expect(await codeOf(coll.updateMany(SLOW, { $set: { touched: true } }, { maxTimeMS: 20 }))).to.equal(50);
    expect(await codeOf(coll.deleteMany(SLOW, { maxTimeMS: 20 }))).to.equal(50);
    expect(
      await codeOf(coll.findOneAndUpdate({ ...SLOW, n: -1 }, { $set: { touched: true } }, { maxTimeMS: 20 })),
    ).to.equal(50);
    expect(await coll.countDocuments()).to.equal(N);
    expect(await coll.countDocuments({ touched: true })).to.equal(0);
  });

  it('a command within its budget answers as without one', async () => {
    expect(await coll.countDocuments({ group: 3 }, { maxTimeMS: 60_000 })).to.equal(N / 10);
    expect(await coll.find({ n: { $lt: 5 } }, { maxTimeMS: 60_000 }).toArray()).to.have.length(5);
  });

  it('refuses bad maxTimeMS values like mongod (BadValue)', async () => {
    for (const maxTimeMS of [-1, 1.5, 'soon', 2 ** 31]) {
      const reply = await server.db.command({ find: 'docs', filter: {}, maxTimeMS }).then(
        () => undefined,
        (e: { code?: number }) => e.code,
      );
      expect(reply, String(maxTimeMS)).to.be.oneOf([2, 51024]);
    }
  });

  it('a long command does not hold the other connections: their commands run meanwhile', async () => {
    // counted in commands, not time: ten answers on another connection while the long one still
    // runs (it would take seconds of CPU), then its connection is closed, which ends it
    const long = await MongoClient.connect(server.uri);
    const other = await MongoClient.connect(server.uri);
    try {
      const heavy = long
        .db(server.db.databaseName)
        .collection<AnyDoc>('docs')
        .aggregate([{ $match: { $expr: { $gt: [{ $size: { $range: [0, 20_000] } }, 0] } } }])
        .toArray()
        .then(
          () => 'finished',
          () => 'ended',
        );
      let done = false;
      void heavy.then(() => (done = true));
      let answered = 0;
      while (!done && answered < 10) {
        expect(await other.db(server.db.databaseName).collection<AnyDoc>('docs').findOne({ _id: 7 })).to.include({
          n: 7,
        });
        answered++;
      }
      expect(done, 'the long command finished before ten other commands were answered').to.equal(false);
      await long.close(true);
      expect(await heavy).to.equal('ended');
    } finally {
      await long.close(true);
      await other.close();
    }
  });
});

describe('engine: default time budget (startEngine defaultMaxTimeMS)', function () {
  this.timeout(30_000);
  before(function () {
    if (process.env.MONGODB_URI) this.skip(); // a server setting of the embedded engine
  });

  it('applies to commands without maxTimeMS; their own maxTimeMS takes precedence', async () => {
    const engine = await startEngine({ defaultMaxTimeMS: 20 });
    const client = await MongoClient.connect(engine.uri);
    try {
      const coll = client.db('budget').collection<AnyDoc>('docs');
      await coll.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, n: i })));
      expect(await codeOf(coll.find(SLOW).toArray())).to.equal(50);
      expect(await coll.countDocuments(SLOW, { maxTimeMS: 60_000 })).to.equal(N);
    } finally {
      await client.close();
      await engine.stop();
    }
  });
});
