import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine, type EngineEvent } from '../../src/engine/index.js';
import { valueKey } from '../../src/engine/bson/compare.js';
import type { Doc } from '../../src/engine/bson/types.js';
import { Collection } from '../../src/engine/storage/collection.js';
import { SecondaryIndex, type IndexSpec } from '../../src/engine/storage/secondary-index.js';
import type { AnyDoc } from './helpers/server.js';
import { entriesOf } from './helpers/index-entries.js';

// An index a start left to build is built in slices between commands (EngineServer.buildDeferredIndexes):
// its entries must be those of a build run at once, whatever the writes made between the slices.

/** Documents with missing fields, nulls, mixed types, arrays (multikey) and duplicate keys. */
function generated(from: number, count: number, seed: number): Doc[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    _id: ((from + i) * 7919) % 1_000_003,
    g: Math.floor(next() * 5),
    v: next() < 0.1 ? null : next() < 0.2 ? `s${Math.floor(next() * 30)}` : Math.floor(next() * 40) + next(),
    tags: next() < 0.2 ? [] : [Math.floor(next() * 6), Math.floor(next() * 6) + 3],
    ...(next() < 0.5 ? { nested: { n: Math.floor(next() * 9) } } : {}),
  }));
}

const SPECS: IndexSpec[] = [
  { v: 2, key: { g: 1, v: -1 }, name: 'g_1_v_-1' },
  { v: 2, key: { tags: 1, g: 1 }, name: 'tags_1_g_1' },
  { v: 2, key: { v: 1 }, name: 'v_1' },
  { v: 2, key: { 'nested.n': 1, _id: -1 }, name: 'nested.n_1__id_-1' },
];

/** The index built at once over the collection's documents as they are. */
function oneShot(spec: IndexSpec, coll: Collection): Array<[unknown, unknown]> {
  const fresh = new SecondaryIndex(spec);
  fresh.fill(coll.all(), false);
  return entriesOf(fresh);
}

describe('engine: index builds in slices', function () {
  this.timeout(60_000);

  it('gives the entries of a build run at once, with inserts, replacements and removals between its slices', () => {
    for (const [n, spec] of SPECS.entries()) {
      const coll = new Collection('db', 'c');
      coll.load(generated(0, 20_000, 3 + n));
      coll.addIndex(spec, false); // left to build, as after a start
      const index = coll.index(spec.name) as SecondaryIndex;
      const extra = generated(20_000, 600, 101 + n);
      let slices = 0;
      // a deadline already passed: one step per slice, so the writes fall in every phase of the build
      while (!index.buildSlice(0)) {
        slices++;
        const step = slices % 4;
        const doc = extra[slices % extra.length] as Doc;
        if (step === 0 && !coll.getById(doc._id)) coll.insert({ ...doc });
        else if (step === 1) {
          const victim = [...coll.all()][(slices * 31) % coll.size] as Doc;
          coll.remove(valueKey(victim._id));
        } else if (step === 2) {
          const target = [...coll.all()][(slices * 17) % coll.size] as Doc;
          coll.replace(valueKey(target._id), { ...target, g: (slices % 7) - 1, tags: [slices % 9] });
        } else {
          const target = [...coll.all()][(slices * 13) % coll.size] as Doc;
          coll.replace(valueKey(target._id), { ...target, note: slices }); // same keys: the entry points at the new version
        }
      }
      expect(slices, spec.name).to.be.greaterThan(20);
      expect(index.deferred).to.equal(false);
      expect(entriesOf(index), spec.name).to.deep.equal(oneShot(spec, coll));
      // and kept up by writes afterwards like any built index
      coll.insert({ _id: 'after', g: 1, v: 2, tags: [4] });
      expect(entriesOf(index), spec.name).to.deep.equal(oneShot(spec, coll));
    }
  });

  it('is finished by a read that needs the index, and started again by a load', () => {
    const coll = new Collection('db', 'c');
    coll.load(generated(0, 5_000, 9));
    coll.addIndex(SPECS[1] as IndexSpec, false);
    const index = coll.index('tags_1_g_1') as SecondaryIndex;
    for (let i = 0; i < 5; i++) expect(index.buildSlice(0)).to.equal(false);
    coll.load(generated(5_000, 1_000, 10)); // the documents the build took are no longer all of them
    expect(index.deferred).to.equal(true);
    for (let i = 0; i < 5; i++) index.buildSlice(0);
    expect(index.entries.size).to.be.greaterThan(6_000); // a read finishes the build under way
    expect(index.deferred).to.equal(false);
    expect(entriesOf(index)).to.deep.equal(oneShot(SPECS[1] as IndexSpec, coll));
  });

  describe('after a restart', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'engine-sliced-build-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers commands while a large index is built in the background, and reads through it once built', async () => {
      const N = 80_000;
      let engine = await startEngine({ dataDir: dir });
      let client = await MongoClient.connect(engine.uri);
      const big = () => client.db('p').collection<AnyDoc>('big');
      await big().createIndex({ tags: 1, g: 1 });
      for (let from = 0; from < N; from += 20_000) await big().insertMany(generated(from, 20_000, from + 1));
      await client.db('p').collection<AnyDoc>('small').insertOne({ _id: 1, name: 'small' });
      await client.close();
      await engine.stop();

      const events: EngineEvent[] = [];
      engine = await startEngine({ dataDir: dir, log: (event) => events.push(event) });
      client = await MongoClient.connect(engine.uri);
      try {
        const seen = (name: string) => events.some((e) => e.event === name);
        for (let waited = 0; waited < 20_000 && !seen('indexes.building'); waited += 5)
          await new Promise((resolve) => setTimeout(resolve, 5));
        expect(seen('indexes.building')).to.equal(true);
        // the build of a multikey index over 80k documents takes far longer than one slice
        const small = await client.db('p').collection<AnyDoc>('small').findOne({ _id: 1 });
        expect(small?.name).to.equal('small');
        expect(seen('indexes.built'), 'answered before the build ended').to.equal(false);
        for (let waited = 0; waited < 30_000 && !seen('indexes.built'); waited += 20)
          await new Promise((resolve) => setTimeout(resolve, 20));
        const built = events.find((e) => e.event === 'indexes.built');
        expect(built?.details?.slices).to.be.greaterThan(10);
        const explained = await big().find({ tags: 4, g: 2 }).explain('executionStats');
        const all = await big().find({}).toArray();
        const expected = all.filter((d) => (d.tags as number[]).includes(4) && d.g === 2).length;
        expect(explained.executionStats.nReturned).to.equal(expected);
        expect(explained.executionStats.totalDocsExamined).to.equal(expected);
      } finally {
        await client.close();
        await engine.stop();
      }
    });
  });
});
