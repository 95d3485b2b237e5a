// Start-up time of a persisted embedded engine with N article-like documents (stored layout, the
// service's indexes), after a clean stop and after kill -9 with a journal to replay.
//   node --import tsx bench/engine-startup.ts [--articles 100000] [--journal-mb 48] [--runs 3] [--dir DIR]
// Each start is timed in a fresh child process (startEngine() until it listens, then the first
// query); the build runs once per invocation.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Long, MongoClient, type AnyBulkWriteOperation, type Document, type IndexDescription } from 'mongodb';
import { startEngine } from '../src/engine/index.js';

const SELF = fileURLToPath(import.meta.url);
const DB = 'content';

const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '100000' },
    'journal-mb': { type: 'string', default: '48' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    role: { type: 'string' },
  },
});

/** A deterministic article in the service's stored layout (components embedded, relations as ids). */
function article(n: number): Document {
  const words = ['server', 'query', 'index', 'garden', 'bread', 'river', 'coffee', 'train', 'signal', 'market'];
  const sentence = (k: number, len: number) =>
    Array.from({ length: len }, (_, i) => words[(n * 7 + k * 13 + i * 3) % words.length]).join(' ') + '.';
  const published = new Date(Date.UTC(2019, 0, 1) + (n % 2190) * 86_400_000);
  return {
    _id: n,
    title: `Notes on ${words[n % words.length]} #${n}`,
    slug: `bench-${String(n).padStart(6, '0')}-notes`,
    summary: sentence(1, 24),
    body: Array.from({ length: 12 }, (_, k) => sentence(k, 14)).join(' '),
    kind: ['news', 'opinion', 'review', 'tutorial'][n % 4],
    publishDate: published.toISOString().slice(0, 10),
    readingTime: (n % 30) + 1,
    views: Long.fromNumber(n * 7919),
    rating: (n % 50) / 10,
    price: n % 5 === 0 ? null : (n % 9000) / 100 + 1,
    featured: n % 10 === 0,
    metadata: { source: 'import', batch: n % 50, score: (n % 1000) / 1000, flags: ['bench'] },
    contactEmail: `writer${n % 200}@example.com`,
    author: (n % 8) + 1,
    category: (n % 6) + 1,
    tags: [(n % 12) + 1, ((n + 5) % 12) + 1],
    seo: {
      id: n,
      metaTitle: `Notes #${n} | Pub`,
      metaDescription: sentence(2, 14),
      keywords: 'news, bench',
      noIndex: false,
      metaSocial: [{ id: n, network: 'Twitter', title: `share ${n}`, description: null }],
    },
    blocks: [
      { id: 2 * n, __component: 'blocks.quote', text: sentence(3, 12), attribution: 'The editors' },
      { id: 2 * n + 1, __component: 'blocks.cta', label: 'Read more', url: `/go/${n}`, style: 'primary' },
    ],
    locale: 'en',
    localeGroup: n,
    publishedAt: published,
    createdAt: published,
    updatedAt: published,
  };
}

const INDEXES: IndexDescription[] = [
  { key: { author: 1 } },
  { key: { category: 1 } },
  { key: { tags: 1 } },
  { key: { slug: 1, locale: 1 }, name: 'slug_unique', unique: true, sparse: true },
  { key: { localeGroup: 1 } },
  { key: { publishedAt: 1 } },
];

async function build(dir: string, articles: number): Promise<void> {
  const engine = await startEngine({ dataDir: dir });
  const client = await MongoClient.connect(engine.uri);
  const coll = client.db(DB).collection('articles');
  await coll.createIndexes(INDEXES);
  for (let start = 1; start <= articles; start += 1000) {
    const batch = [];
    for (let n = start; n < Math.min(start + 1000, articles + 1); n++) batch.push(article(n));
    await coll.insertMany(batch, { ordered: false });
  }
  await client.close();
  await engine.stop();
}

/** Child: opens the data dir, updates articles until the journal holds `mb` MB, then kills itself. */
async function dirty(dir: string, mb: number): Promise<void> {
  const engine = await startEngine({ dataDir: dir });
  const client = await MongoClient.connect(engine.uri);
  const coll = client.db(DB).collection<{ _id: number }>('articles');
  const bytes = mb * 1024 * 1024;
  for (let n = 1; journalBytes(dir) < bytes; n++) {
    const ops: AnyBulkWriteOperation<{ _id: number }>[] = Array.from({ length: 100 }, (_, i) => ({
      updateOne: { filter: { _id: ((n * 100 + i) % 100_000) + 1 }, update: { $set: { summary: `edited ${n}` } } },
    }));
    await coll.bulkWrite(ops, { ordered: false });
  }
  process.kill(process.pid, 'SIGKILL');
}

function journalBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('journal'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

/** Child: times startEngine() and the first query, prints one JSON line, stops without compacting work. */
async function timeStart(dir: string): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const engine = await startEngine({ dataDir: dir });
  const started = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const client = await MongoClient.connect(engine.uri);
  const t1 = performance.now();
  const n = await client.db(DB).collection('articles').countDocuments({ author: 3 });
  const firstQuery = performance.now() - t1;
  process.stdout.write(
    `${JSON.stringify({ startMs: Math.round(started), startCpuMs: Math.round((cpu.user + cpu.system) / 1000), firstQueryMs: Math.round(firstQuery), n, rssMb: Math.round(process.memoryUsage().rss / 1048576) })}\n`,
  );
  await client.close();
  process.kill(process.pid, 'SIGKILL'); // leave the data directory exactly as it was for the next run
}

function child(role: string, dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', SELF, '--role', role, '--dir', dir, ...passThrough()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', () => resolve(out.trim()));
  });
}

/** Times a start on a copy, so that every run starts from the same files (a start may compact). */
async function timedCopy(dir: string): Promise<string> {
  const copy = `${dir}-run`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  rmSync(join(copy, 'LOCK'), { force: true });
  try {
    return await child('time', copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function passThrough(): string[] {
  return ['--journal-mb', values['journal-mb'] ?? '48'];
}

function dirSize(dir: string): string {
  const files = readdirSync(dir).map((f) => `${f} ${(statSync(join(dir, f)).size / 1048576).toFixed(1)} MB`);
  return files.join(', ');
}

async function main(): Promise<void> {
  const role = values.role;
  const dir = values.dir ?? '';
  if (role === 'dirty') return dirty(dir, Number(values['journal-mb']));
  if (role === 'time') return timeStart(dir);

  const articles = Number(values.articles);
  const runs = Number(values.runs);
  const work = values.dir ?? mkdtempSync(join(tmpdir(), 'engine-startup-'));
  try {
    let t = performance.now();
    await build(work, articles);
    console.log(`built ${articles} articles in ${((performance.now() - t) / 1000).toFixed(1)} s: ${dirSize(work)}`);
    for (let i = 0; i < runs; i++) console.log(`clean start:         ${await timedCopy(work)}`);
    t = performance.now();
    await child('dirty', work);
    console.log(`kill -9 after ${values['journal-mb']} MB of journal: ${dirSize(work)}`);
    for (let i = 0; i < runs; i++) console.log(`start after kill -9: ${await timedCopy(work)}`);
  } finally {
    if (!values.dir) rmSync(work, { recursive: true, force: true });
  }
}

await main();
