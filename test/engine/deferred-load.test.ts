import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine, type EngineEvent } from '../../src/engine/index.js';
import { valueKey } from '../../src/engine/bson/compare.js';
import type { Doc } from '../../src/engine/bson/types.js';
import { Collection } from '../../src/engine/storage/collection.js';
import type { AnyDoc } from './helpers/server.js';

const docs = (from: number, to: number, tag = 'v1'): Doc[] =>
  Array.from({ length: to - from }, (_, i) => ({ _id: from + i, k: (from + i) % 7, tag }));

const entriesOf = (coll: Collection, name: string): unknown[] => {
  const out: unknown[] = [];
  const index = coll.index(name);
  if (!index) throw new Error(`no index ${name}`);
  index.entries.scan(0, index.entries.size, 1, (_key, doc) => {
    out.push(doc._id);
    return true;
  });
  return out;
};

describe('engine: documents left encoded at start-up (decoded when first used)', function () {
  this.timeout(60_000);

  it('applies loads and removals in their order whichever use comes first', () => {
    const uses: Array<[string, (c: Collection) => unknown]> = [
      ['all', (c) => [...c.all()].map((d) => [d._id, d.tag])],
      ['get', (c) => [c.getById(3)?.tag, c.getById(5), c.getById(40)?.tag]],
      ['size', (c) => c.size],
      ['index', (c) => entriesOf(c, 'k_1')],
      ['_id index', (c) => entriesOf(c, '_id_')],
      ['substrings', (c) => c.trigramIndex('tag') !== undefined && [...c.all()].length],
    ];
    const expected = (() => {
      const c = new Collection('p', 'c');
      c.addIndex({ v: 2, key: { k: 1 }, name: 'k_1' }, false);
      c.load(docs(0, 30));
      c.remove(valueKey(5));
      c.load(docs(3, 4, 'v2'));
      c.load(docs(30, 50));
      return c;
    })();
    for (const [name, use] of uses) {
      const c = new Collection('p', 'c');
      c.addIndex({ v: 2, key: { k: 1 }, name: 'k_1' }, false);
      let decoded = 0;
      c.loadLater(() => (decoded++, docs(0, 30)));
      c.removeLater(5);
      c.load(docs(3, 4, 'v2'));
      c.loadLater(() => (decoded++, docs(30, 50)));
      expect(c.loading, name).to.equal(true);
      expect(decoded, name).to.equal(0);
      expect(use(c), name).to.deep.equal(use(expected));
      expect(c.loading, name).to.equal(false);
      expect(decoded, name).to.equal(2);
      expect(entriesOf(c, 'k_1'), name).to.deep.equal(entriesOf(expected, 'k_1'));
    }
  });

  it('applies a few ms of loads at a time in the background, the rest at the first use', () => {
    const c = new Collection('p', 'c');
    c.addIndex({ v: 2, key: { k: 1 }, name: 'k_1' }, false);
    const decoded: number[] = [];
    // the steps' time on a clock the loads move, so a machine that stalls the test changes nothing
    let now = 0;
    const clock = () => now;
    const load =
      (from: number, busyMs = 0) =>
      () => {
        now += busyMs;
        decoded.push(from);
        return docs(from, from + 10);
      };
    // a load that takes longer than a step is a step of its own; small ones (a journal's lone
    // writes) go together until a step's time is up
    c.loadLater(load(0, 6));
    c.loadLater(load(10));
    c.loadLater(load(20));
    c.loadLater(load(30, 6));
    c.loadLater(load(40));
    expect(c.settleStep(clock)).to.equal(true);
    expect(decoded).to.deep.equal([0]);
    expect(c.settleStep(clock)).to.equal(true);
    expect(decoded).to.deep.equal([0, 10, 20, 30]);
    expect(c.loading).to.equal(true);
    expect(entriesOf(c, 'k_1')).to.have.length(50);
    expect(decoded).to.deep.equal([0, 10, 20, 30, 40]);
    expect(c.loading).to.equal(false);
    expect(c.settleStep(clock)).to.equal(false);
  });

  it('fails every use of a collection whose stored batch cannot be decoded rather than answer without it', () => {
    const c = new Collection('p', 'c');
    c.loadLater(() => docs(0, 10));
    c.loadLater(() => {
      throw new Error('bad batch');
    });
    c.loadLater(() => docs(20, 30));
    expect(() => c.size).to.throw('bad batch');
    expect(() => [...c.all()]).to.throw('bad batch');
    expect(() => c.settleStep()).to.throw('bad batch');
    expect(c.loading).to.equal(true);
  });

  describe('a persisted engine restarted', () => {
    let dir: string;
    beforeEach(function () {
      if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
      dir = mkdtempSync(join(tmpdir(), 'engine-deferred-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('answers at once with every document, and decodes the rest from the start on', async () => {
      const N = 3_000;
      const first = await startEngine({ dataDir: dir });
      const client = await MongoClient.connect(first.uri);
      const c = client.db('p').collection<AnyDoc>('items');
      await c.createIndex({ k: 1 });
      // several batches of documents in the journal, changes and removals between them
      for (let from = 0; from < N; from += 500)
        await c.insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: from + i, k: (from + i) % 10 })));
      await c.updateMany({ k: 3 }, { $set: { changed: true } });
      await c.deleteMany({ k: 4 });
      await client.close();
      await first.stop();

      const events: EngineEvent[] = [];
      const engine = await startEngine({ dataDir: dir, log: (e) => events.push(e) });
      const again = await MongoClient.connect(engine.uri);
      try {
        const items = again.db('p').collection<AnyDoc>('items');
        // the first command may come before any batch is decoded: it decodes the collection itself
        expect(await items.countDocuments({ k: 3, changed: true })).to.equal(N / 10);
        expect(await items.countDocuments({})).to.equal(N - N / 10);
        expect(await items.countDocuments({ k: 4 })).to.equal(0);
        expect((await items.find({ k: 9 }).sort({ _id: -1 }).limit(1).toArray())[0]?._id).to.equal(N - 1);
        await again.db('p').collection<AnyDoc>('other').insertMany(docs(0, 600));
      } finally {
        await again.close();
        await engine.stop();
      }

      // untouched by any command: decoded in the background, batch by batch, `decoded` settling then
      events.length = 0;
      const restarted = await startEngine({ dataDir: dir, log: (e) => events.push(e) });
      expect(events.map((e) => e.event)).not.to.include('documents.decoded');
      await restarted.decoded;
      const client3 = await MongoClient.connect(restarted.uri);
      try {
        const decoded = events.find((e) => e.event === 'documents.decoded');
        expect(decoded?.details?.steps).to.be.greaterThan(1);
        expect(await client3.db('p').collection('other').countDocuments({ tag: 'v1' })).to.equal(600);
        expect(await client3.db('p').collection('items').countDocuments({})).to.equal(N - N / 10);
      } finally {
        await client3.close();
        await restarted.stop();
      }
    });

    it('settles `decoded` at once when the start left nothing encoded, and on a stop before the end', async () => {
      const memory = await startEngine();
      await memory.decoded;
      await memory.stop();
      const empty = await startEngine({ dataDir: dir });
      await empty.decoded;
      const client = await MongoClient.connect(empty.uri);
      await client.db('p').collection<AnyDoc>('items').insertMany(docs(0, 2_000));
      await client.close();
      await empty.stop();

      const events: EngineEvent[] = [];
      const stopped = await startEngine({ dataDir: dir, log: (e) => events.push(e) });
      await stopped.stop();
      await stopped.decoded;
      expect(events.map((e) => e.event)).not.to.include('documents.decoded');
    });
  });
});
