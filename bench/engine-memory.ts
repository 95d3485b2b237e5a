// Where the engine's heap goes per stored document: loads a persisted data directory (e.g. one
// built by bench/engine-startup.ts) into a catalog in this process, as start-up does, and prints
// the heap after a forced GC at each stage (documents loaded, every index built, trigram lists of
// a field; the heap plus the array buffers outside it), plus a heap snapshot's self sizes by constructor for the documents with --snapshot.
//   npm run bench:memory -- --dir DIR [--trigram title] [--snapshot]
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { Catalog } from '../src/engine/storage/catalog.js';
import { recover } from '../src/engine/storage/recovery.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    trigram: { type: 'string', default: 'title' },
    snapshot: { type: 'boolean', default: false },
  },
});

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/**
 * The engine's memory: the JavaScript heap plus the backing stores of typed arrays and buffers,
 * which live outside it (the trigram lists' posting lists, the index orders a snapshot kept).
 */
/** the longest forced full garbage collection so far (what the engine runs after its start's index builds) */
let longestGcMs = 0;

function heapBytes(): number {
  const t = performance.now();
  gc?.();
  longestGcMs = Math.max(longestGcMs, performance.now() - t);
  gc?.();
  return v8.getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;
}

interface SnapshotMeta {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self sizes summed by node type and name (constructor, or the kind of string/array). */
function snapshotSummary(): Array<[string, number, number]> {
  const file = v8.writeHeapSnapshot(join(tmpdir(), `engine-memory-${process.pid}.heapsnapshot`));
  const snap = JSON.parse(readFileSync(file, 'utf8')) as SnapshotMeta;
  rmSync(file);
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const totals = new Map<string, [number, number]>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const label = type === 'object' || type === 'native' ? `${type} ${snap.strings[snap.nodes[i + nameAt]]}` : type;
    const t = totals.get(label) ?? [0, 0];
    t[0] += snap.nodes[i + sizeAt];
    t[1]++;
    totals.set(label, t);
  }
  return [...totals].map(([k, [bytes, count]]) => [k, bytes, count] as [string, number, number]);
}

const dir = values.dir;
if (!dir) throw new Error('--dir DIR (a data directory) is required');
const before = heapBytes();
const beforeSummary = values.snapshot ? snapshotSummary() : [];
const catalog = new Catalog();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
recover(dir, catalog, { log: () => {}, repair: false });
const cpu = process.cpuUsage(cpu0);
const loadMs = performance.now() - t0;
const colls = catalog.databases().flatMap((db) => catalog.collections(db));
const docs = colls.reduce((n, c) => n + c.size, 0);
const perDoc = (bytes: number) => `${((bytes / docs) | 0).toLocaleString()} B/doc`;
const loaded = heapBytes();
console.log(
  `${docs} documents loaded in ${loadMs.toFixed(0)} ms (${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU); heap: documents ${perDoc(loaded - before)}`,
);
if (values.snapshot) {
  const base = new Map(beforeSummary.map(([k, b, n]) => [k, [b, n]]));
  const rows = snapshotSummary()
    .map(([k, b, n]) => [k, b - (base.get(k)?.[0] ?? 0), n - (base.get(k)?.[1] ?? 0)] as const)
    .filter(([, b]) => b > docs * 4)
    .sort((x, y) => y[1] - x[1]);
  for (const [k, b, n] of rows)
    console.log(`  ${k.padEnd(40)} ${perDoc(b).padStart(14)}  ${(n / docs).toFixed(2)} per doc`);
}
let last = loaded;
for (const coll of colls) {
  for (const ix of coll.indexes) {
    const t = performance.now();
    void ix.size; // builds it
    const buildMs = performance.now() - t;
    const now = heapBytes();
    console.log(`  index ${coll.name}.${ix.spec.name}: ${perDoc(now - last)}, built in ${buildMs.toFixed(0)} ms`);
    last = now;
  }
}
console.log(`heap: indexes ${perDoc(last - loaded)}`);
const trigramField = values.trigram;
if (trigramField) {
  for (const coll of colls) if (coll.size > 0) coll.trigramIndex(trigramField).estimate('abc');
  const now = heapBytes();
  console.log(`heap: trigram lists of ${trigramField} ${perDoc(now - last)}`);
  last = now;
}
console.log(`longest full garbage collection: ${longestGcMs.toFixed(0)} ms`);
console.log(
  `heap total: ${perDoc(last - before)} (${((last - before) / 2 ** 20).toFixed(0)} MB for ${docs} documents)`,
);
