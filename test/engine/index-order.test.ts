import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine, type EngineEvent, type EngineOptions } from '../../src/engine/index.js';
import type { Doc } from '../../src/engine/bson/types.js';
import { Catalog } from '../../src/engine/storage/catalog.js';
import { SNAPSHOT_FILE } from '../../src/engine/storage/data-files.js';
import { keptEntryOrder } from '../../src/engine/storage/index-order.js';
import { decodeBody, RecordReader } from '../../src/engine/storage/records.js';
import { recover } from '../../src/engine/storage/recovery.js';
import { SecondaryIndex } from '../../src/engine/storage/secondary-index.js';
import type { AnyDoc } from './helpers/server.js';
import { entriesOf } from './helpers/index-entries.js';

/** Documents with every shape an index meets: missing fields, nulls, mixed types, arrays (multikey), duplicates. */
function generated(count: number): AnyDoc[] {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    _id: (i * 7919) % (count + 1),
    g: Math.floor(next() * 5),
    v: next() < 0.1 ? null : next() < 0.2 ? `s${Math.floor(next() * 30)}` : Math.floor(next() * 40) + next(),
    tags: next() < 0.2 ? [] : [Math.floor(next() * 6), Math.floor(next() * 6) + 3],
    at: new Date(Date.UTC(2024, 0, 1 + Math.floor(next() * 20))),
    ...(next() < 0.7 ? { u: `u${i}` } : {}),
    ...(next() < 0.5 ? { nested: { n: Math.floor(next() * 9) } } : {}),
  }));
}

const INDEXES: Array<{ key: Record<string, 1 | -1>; unique?: boolean; sparse?: boolean }> = [
  { key: { g: 1, v: -1 } },
  { key: { tags: 1, g: 1 } },
  { key: { v: 1 } },
  { key: { g: -1, tags: -1 } },
  { key: { at: -1 } },
  { key: { 'nested.n': 1, _id: -1 } },
  { key: { u: 1 }, unique: true, sparse: true },
];

/** The same index built by sorting the documents (the general path). */
function sortedEntries(index: SecondaryIndex, docs: Iterable<Doc>): Array<[unknown, unknown]> {
  const fresh = new SecondaryIndex(index.spec);
  fresh.fill(docs, false);
  return entriesOf(fresh);
}

function snapshotOps(dir: string): string[] {
  const fd = openSync(join(dir, SNAPSHOT_FILE), 'r');
  try {
    const reader = new RecordReader(fd);
    const ops: string[] = [];
    for (let offset = 0; offset < reader.size;) {
      const record = reader.recordAt(offset);
      if (!record) throw new Error(`no record at ${offset}`);
      ops.push(decodeBody(record.body).op);
      offset += record.length;
    }
    return ops;
  } finally {
    closeSync(fd);
  }
}

/** Loads the directory as a start does, builds every index; answers, per index, whether the kept order was taken. */
function loadAndCompare(dir: string): Map<string, boolean> {
  const catalog = new Catalog();
  recover(dir, catalog, { log: () => {}, repair: false });
  const coll = catalog.collections('p').find((c) => c.name === 'items');
  if (!coll) throw new Error('no collection p.items');
  const kept = new Map<string, boolean>();
  for (const index of coll.indexes) {
    const loaded = entriesOf(index);
    expect(loaded, index.spec.name).to.deep.equal(sortedEntries(index, coll.all()));
    expect(loaded.length, index.spec.name).to.be.greaterThan(0);
    kept.set(index.spec.name, index.builtFromKeptOrder);
  }
  return kept;
}

describe('engine: index order kept in the snapshot (loaded instead of sorted)', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-index-order-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function withEngine(
    fn: (client: MongoClient, events: EngineEvent[]) => Promise<void>,
    opts: EngineOptions = {},
  ): Promise<void> {
    const events: EngineEvent[] = [];
    const engine = await startEngine({ dataDir: dir, log: (e) => events.push(e), ...opts });
    const client = await MongoClient.connect(engine.uri);
    try {
      await fn(client, events);
    } finally {
      await client.close();
      await engine.stop();
    }
  }

  /** Stores the documents and indexes, then has a compaction write them all to the snapshot. */
  async function storeWithSnapshot(): Promise<void> {
    await withEngine(
      async (client, events) => {
        const c = client.db('p').collection<AnyDoc>('items');
        const docs = generated(3_000);
        // some indexes kept up by each insert, the others built over stored documents
        for (const spec of INDEXES.slice(0, 3)) await c.createIndex(spec.key, spec);
        for (let i = 0; i < docs.length; i += 500) await c.insertMany(docs.slice(i, i + 500));
        for (const spec of INDEXES.slice(3)) await c.createIndex(spec.key, spec);
        // every write starts a compaction unless one is running: the second to finish from now
        // on started after the last index was created
        const finished = () => events.filter((e) => e.event === 'compaction.finished').length;
        const target = finished() + 2;
        for (let n = 0; finished() < target; n++) {
          if (n > 500) throw new Error('no compaction finished');
          await client.db('p').collection<AnyDoc>('ping').insertOne({ n });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      { compactAtBytes: 1 },
    );
  }

  it('writes each index order into the snapshot and loads the same entries as a sort', async () => {
    await storeWithSnapshot();
    const ops = snapshotOps(dir);
    expect(ops.filter((op) => op === 'indexOrder')).to.have.length(INDEXES.length);
    const kept = loadAndCompare(dir);
    const names = INDEXES.map((spec) => Object.entries(spec.key).flat().join('_'));
    for (const name of names) expect(kept.get(name), name).to.equal(true);
  });

  it('sorts instead when journals replayed after the snapshot changed the documents, with the same answers', async () => {
    await storeWithSnapshot();
    const answers = async (client: MongoClient) => {
      const c = client.db('p').collection<AnyDoc>('items');
      const out: unknown[] = [];
      for (const { key } of INDEXES) {
        out.push(await c.countDocuments({ g: { $gte: 2 } }, { hint: key }));
        out.push((await c.find({}).sort(key).hint(key).limit(60).toArray()).map((d) => d._id));
      }
      return out;
    };
    let before: unknown[] = [];
    await withEngine(async (client) => {
      const c = client.db('p').collection<AnyDoc>('items');
      // keys changed in place (same number of entries), documents deleted and added
      await c.updateMany({ g: 1 }, [{ $set: { v: -5, at: new Date(0), tags: { $concatArrays: ['$tags', [99]] } } }]);
      await c.deleteMany({ g: 4, v: { $gt: 30 } });
      await c.insertMany([
        { _id: 'late', g: 2, v: 'zz', tags: [1, 2, 3] },
        { _id: 'later', g: 0 },
      ]);
      before = await answers(client);
    });
    // the snapshot still holds the earlier order: every index is built by sorting now
    const kept = loadAndCompare(dir);
    expect([...kept.values()].filter((k) => k)).to.have.length(0);
    await withEngine(async (client) => {
      expect(await answers(client)).to.deep.equal(before);
    });
  });

  it('keeps the order through journals that changed only what no index holds', async () => {
    await storeWithSnapshot();
    await withEngine(async (client) => {
      await client
        .db('p')
        .collection<AnyDoc>('items')
        .updateMany({ g: { $lte: 2 } }, { $set: { note: 'seen' } });
    });
    const kept = loadAndCompare(dir);
    expect([...kept.values()].filter((k) => !k)).to.have.length(1); // `_id_`: never kept (built in _id order)
  });

  it('starts from kept positions as far as they place the entries, the others after them', () => {
    // entries: doc 0 -> [0], doc 1 -> none, doc 2 -> [1, 2] (multikey), doc 3 -> [3]; sorted order 2, 0, 3, 1
    const firstEntry = [0, 1, 1, 3, 4];
    const rank = [1, 3, 0, 2];
    const compare = (a: number, b: number) => rank[a] - rank[b];
    expect(keptEntryOrder(Int32Array.from([2, 0, 3, 2]), firstEntry, compare)).to.deep.equal([2, 0, 3, 1]);
    const cases: Array<[number[], number[]]> = [
      [
        [2, 0, 3],
        [2, 0, 3, 1],
      ],
      [
        [2, 0, 3, 2, 0],
        [2, 0, 3, 1],
      ],
      [
        [2, 0, 3, 3],
        [2, 0, 3, 1],
      ],
      [
        [2, 1, 3, 2],
        [2, 3, 1, 0],
      ],
      [
        [2, 0, 9, -1, 2],
        [2, 0, 1, 3],
      ],
      [[], [0, 1, 2, 3]],
    ];
    for (const [positions, start] of cases)
      expect(keptEntryOrder(Int32Array.from(positions), firstEntry, compare), JSON.stringify(positions)).to.deep.equal(
        start,
      );
  });
});
