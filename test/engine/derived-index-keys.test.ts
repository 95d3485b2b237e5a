import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection, type Filter, type Sort } from 'mongodb';
import { startEngine, type Engine } from '../../src/engine/index.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// An index whose documents reach no array keeps no keys, only its documents, and computes each
// entry's key from its document (storage/key-list.ts, `derive`); the first document with an array
// at an indexed path makes it multikey and its keys stored. Both forms, and the switch between
// them (by an insert, an update, and in a build over loaded data), must answer counts, ranges and
// ordered pages exactly as a collection without indexes does.
const INDEXES: Array<Record<string, 1 | -1>> = [
  { g: 1 },
  { v: -1, g: 1 },
  { 'm.n': 1, g: 1 },
  { 'm.n': -1 },
  { w: 1, 'm.k.z': 1 },
];

function generated(count: number, seed: number): AnyDoc[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ids = Array.from({ length: count }, (_, i) => i + 1).sort(() => next() - 0.5);
  return ids.map((id) => {
    const r = next();
    // embedded values, missing intermediates, non-document intermediates, nulls and doubles
    const m = r < 0.1 ? undefined : r < 0.15 ? 5 : r < 0.2 ? null : { n: Math.floor(next() * 9), k: { z: id % 4 } };
    return {
      _id: id,
      g: Math.floor(next() * 7),
      v: next() < 0.1 ? null : Math.floor(next() * 50) / 4,
      w: next() < 0.5 ? 'x' : ['y', 'z'][id % 2],
      ...(m === undefined ? {} : { m }),
    };
  });
}

const FILTERS: Array<Filter<AnyDoc>> = [
  {},
  { g: 2 },
  { g: { $gte: 1, $lt: 4 } },
  { v: { $gt: 5 }, g: { $ne: 3 } },
  { v: null },
  { 'm.n': 3 },
  { 'm.n': { $in: [1, 7] }, g: 2 },
  { 'm.n': null },
  { 'm.n': { $gte: 4 } },
  { w: 'y', 'm.k.z': 2 },
  { w: { $in: ['x', 'z'] }, 'm.k.z': { $lte: 1 } },
  { 'm.k.z': null },
];

const SORTS: Sort[] = [
  { g: 1, _id: 1 },
  { v: -1, g: 1, _id: -1 },
  { 'm.n': 1, g: 1, _id: 1 },
  { 'm.n': -1, _id: 1 },
  { w: 1, 'm.k.z': 1, _id: 1 },
];

async function sameAnswers(indexed: Collection<AnyDoc>, plain: Collection<AnyDoc>, label: string): Promise<void> {
  for (const filter of FILTERS) {
    const what = `${label} ${JSON.stringify(filter)}`;
    expect(await indexed.countDocuments(filter), what).to.equal(await plain.countDocuments(filter));
    for (const sort of SORTS) {
      const page = (c: Collection<AnyDoc>) => c.find(filter).sort(sort).skip(10).limit(15).toArray();
      expect(await page(indexed), `${what} sorted ${JSON.stringify(sort)}`).to.deep.equal(await page(plain));
    }
  }
}

/** Changes both collections alike: array values appear (multikey), documents move and go. */
async function change(colls: Array<Collection<AnyDoc>>, step: number): Promise<void> {
  for (const c of colls) {
    if (step === 0) {
      await c.updateMany({ g: 4, v: { $lt: 3 } }, { $set: { g: 8 } });
      await c.deleteMany({ g: 1, 'm.n': { $gt: 5 } });
    } else if (step === 1) {
      // an array under a dotted path, then at a top-level field
      await c.updateOne({ _id: 7 }, { $set: { m: [{ n: 2, k: { z: 9 } }, { n: 11 }] } });
      await c.insertOne({ _id: 100_001, g: [3, 12], v: 1.5, w: 'x', m: { n: 4, k: { z: 0 } } });
    } else {
      await c.updateMany({ w: 'z' }, { $inc: { v: 0.25 } });
      await c.deleteMany({ g: 8 });
    }
  }
}

describe('engine: index keys derived from the documents, then stored', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer('derived-keys');
  });
  after(async () => {
    await server.stop();
  });

  it('answers as a collection without indexes before and after documents with arrays arrive', async () => {
    const plain = server.db.collection<AnyDoc>('plain');
    const indexed = server.db.collection<AnyDoc>('indexed');
    for (const key of INDEXES) await indexed.createIndex(key);
    const docs = generated(2500, 7);
    for (const coll of [plain, indexed])
      for (let i = 0; i < docs.length; i += 250) await coll.insertMany(docs.slice(i, i + 250).map((d) => ({ ...d })));
    await sameAnswers(indexed, plain, 'scalars');
    for (let step = 0; step < 3; step++) {
      await change([plain, indexed], step);
      await sameAnswers(indexed, plain, `after step ${step}`);
    }
  });

  it('reads any field name as a name (keys are read by a function generated from it)', async () => {
    const names = ['a"b', "x'y", 'back\\slash', 'line\u2028sep', '"]; throw new Error("injected"); //', 'ünï'];
    for (const [i, name] of names.entries()) {
      const coll = server.db.collection<AnyDoc>(`names_${i}`);
      await coll.createIndex({ [name]: 1, z: -1 });
      await coll.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: n, [name]: n % 4, z: n })));
      const sorted = await coll
        .find({ [name]: { $gte: 2 } })
        .sort({ [name]: 1, z: -1 })
        .toArray();
      expect(
        sorted.map((d) => d._id),
        name,
      ).to.deep.equal([26, 22, 18, 14, 10, 6, 2, 27, 23, 19, 15, 11, 7, 3]);
      expect(await coll.countDocuments({ [name]: 1 }), name).to.equal(8);
    }
  });

  it('answers the same once built over persisted data, and after arrays arrive then', async function () {
    if (!server.embedded) this.skip(); // about the engine's data directory
    const dir = mkdtempSync(join(tmpdir(), 'derived-keys-'));
    let engine: Engine | undefined;
    let client: MongoClient | undefined;
    const open = async () => {
      engine = await startEngine({ port: 0, dataDir: dir });
      client = await MongoClient.connect(engine.uri);
      const db = client.db('derived');
      return { plain: db.collection<AnyDoc>('plain'), indexed: db.collection<AnyDoc>('indexed') };
    };
    const close = async () => {
      await client?.close();
      await engine?.stop();
    };
    try {
      let { plain, indexed } = await open();
      for (const key of INDEXES) await indexed.createIndex(key);
      const docs = generated(2000, 21);
      for (const coll of [plain, indexed]) await coll.insertMany(docs.map((d) => ({ ...d })));
      await change([plain, indexed], 0);
      // a document with an array before the restart: that index's build stores its keys
      for (const c of [plain, indexed]) await c.updateOne({ _id: 9 }, { $set: { w: ['y', 'q'] } });
      await close();
      ({ plain, indexed } = await open());
      await sameAnswers(indexed, plain, 'restarted');
      for (let step = 1; step < 3; step++) {
        await change([plain, indexed], step);
        await sameAnswers(indexed, plain, `restarted, after step ${step}`);
      }
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
