// Benchmark of the embedded engine through the official driver (10k documents).
// Run: node --import tsx bench/engine.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db, type Document } from 'mongodb';
import { startEngine } from '../src/engine/index.js';
import type { AnyDoc } from '../test/engine/helpers/server.js';

const N = 10_000;
const RUNS = 50;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(label: string, runs: number, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  console.log(
    `${label.padEnd(48)} median ${median(samples).toFixed(2)} ms   p90 ${samples.sort((a, b) => a - b)[Math.floor(runs * 0.9)].toFixed(2)} ms`,
  );
}

async function seed(db: Db): Promise<void> {
  await db
    .collection<AnyDoc>('authors')
    .insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i + 1, name: `Author ${i + 1}` })));
  await db
    .collection<AnyDoc>('tags')
    .insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: i + 1, label: `tag-${i + 1}` })));
  const articles: Document[] = Array.from({ length: N }, (_, i) => ({
    _id: i + 1,
    title: `Article ${i + 1}`,
    status: i % 3 === 0 ? 'draft' : 'published',
    views: (i * 7919) % 1000,
    publishedAt: new Date(Date.UTC(2024, 0, 1) + ((i * 104729) % 365) * 86_400_000),
    author: (i % 200) + 1,
    tags: [(i % 500) + 1, ((i * 3) % 500) + 1, ((i * 7) % 500) + 1],
  }));
  await db.collection<AnyDoc>('articles').insertMany(articles);
  await db.collection<AnyDoc>('articles').createIndexes([{ key: { author: 1 } }, { key: { publishedAt: 1 } }]);
}

const page = [
  { $match: { status: 'published', views: { $gte: 100 } } },
  { $sort: { publishedAt: -1, _id: 1 } },
  { $skip: 25 },
  { $limit: 25 },
];
const lookups = [
  {
    $lookup: {
      from: 'authors',
      let: { id: '$author' },
      pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$id'] } } }, { $project: { name: 1 } }],
      as: 'author',
    },
  },
  { $set: { author: { $first: '$author' } } },
  {
    $lookup: {
      from: 'tags',
      let: { ids: '$tags' },
      pipeline: [{ $match: { $expr: { $in: ['$_id', '$$ids'] } } }, { $project: { label: 1 } }],
      as: 'tags',
    },
  },
];

async function inserts(db: Db, label: string): Promise<void> {
  const c = db.collection<AnyDoc>('inserts');
  const t = process.hrtime.bigint();
  for (let i = 0; i < 1000; i++) await c.insertOne({ _id: i, title: `t${i}`, n: i });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  console.log(`${label.padEnd(48)} total ${ms.toFixed(0)} ms   (${(ms / 1000).toFixed(3)} ms each)`);
}

const engine = await startEngine({});
const client = await MongoClient.connect(engine.uri);
const db = client.db('bench');
await seed(db);
const articles = db.collection<AnyDoc>('articles');
console.log(`embedded engine, ${N} articles, node ${process.version}`);
await time('page of 25 (filter + sort + skip/limit)', RUNS, () => articles.aggregate(page).toArray());
await time('page of 25 + to-one and to-many $lookup', RUNS, () => articles.aggregate([...page, ...lookups]).toArray());
await time('page of 25 + $lookup localField/foreignField', RUNS, () =>
  articles
    .aggregate([
      ...page,
      { $lookup: { from: 'authors', localField: 'author', foreignField: '_id', as: 'author' } },
      { $lookup: { from: 'tags', localField: 'tags', foreignField: '_id', as: 'tags' } },
    ])
    .toArray(),
);
await time('find page of 25 (driver find, sort, limit)', RUNS, () =>
  articles.find({ status: 'published' }).sort({ views: -1, _id: 1 }).limit(25).toArray(),
);
await time('countDocuments with filter', RUNS, () =>
  articles.countDocuments({ status: 'published', views: { $gte: 100 } }),
);
let k = 0;
await time('findOne by _id', 500, () => articles.findOne({ _id: (k++ % N) + 1 }));
// concurrent creates commit their ids out of order: reads then put matches in natural order by
// positions the collection keeps across writes
await articles.insertOne({ _id: 0, title: 'committed out of order' });
let next = N + 1;
await time('insert, then a read by ids (ids not ascending)', RUNS, async () => {
  const id = next++;
  await articles.insertOne({ _id: id, title: `Article ${id}` });
  await articles.find({ _id: { $in: [1, id] } }).toArray();
});
await inserts(db, '1,000 single inserts, in memory');
await client.close();
await engine.stop();

const dir = mkdtempSync(join(tmpdir(), 'engine-bench-'));
const durable = await startEngine({ dataDir: dir });
const client2 = await MongoClient.connect(durable.uri);
await inserts(client2.db('bench'), '1,000 single inserts, journal + fdatasync');
await client2.close();
await durable.stop();
rmSync(dir, { recursive: true, force: true });
