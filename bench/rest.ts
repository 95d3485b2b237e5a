// npm run bench: REST read throughput on a fresh in-memory database.
// Loads 10k articles with authors, categories and tags straight into the collections (storage
// layout of docs/ARCHITECTURE.md), serves the demo app (the repository root) on 127.0.0.1, and runs
// autocannon from a child process (10 connections, 10 s) on a filtered `find` populating two
// relations (page of 25). Prints req/s, p50/p99 latency and MongoDB commands per request.
// The embedded engine runs in its own process; with MONGODB_URI set, that server is used instead.
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Long, type Collection } from 'mongodb';
import { createServer } from '../src/app.js';
import { componentCounterKey } from '../src/models/index.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/content-service.mjs', import.meta.url));
const AUTOCANNON = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
const ARTICLES = 10_000;
const AUTHORS = 200;
const CATEGORIES = 20;
const TAGS = 100;
const DURATION_S = 10;
const CONNECTIONS = 10;
const PATH =
  '/api/articles?filters[kind][$eq]=news&filters[readingTime][$gte]=5&populate[author][fields][0]=name&populate[tags][fields][0]=name' +
  '&fields[0]=title&fields[1]=slug&fields[2]=readingTime&pagination[page]=3&pagination[pageSize]=25';

interface AutocannonResult {
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

/**
 * The database: MONGODB_URI, or the embedded engine in its own process (`content-service engine
 * --memory`), as a database server would be, so it does not share the service's event loop.
 */
async function databaseUri(): Promise<{ uri: string; stop: () => Promise<void> }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  const child = spawn(process.execPath, [CLI, 'engine', '--memory', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('mongodb://'));
      if (line) resolve(line.trim());
    });
    child.on('exit', (code) => reject(new Error(`engine exited with ${String(code)}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { uri, stop };
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error('bench: took more than 3 minutes, giving up');
    process.exit(1);
  }, 180_000);
  watchdog.unref();

  process.env.LOG_LEVEL ??= 'warn'; // no per-request log lines while measuring
  const database = await databaseUri();
  const uri = new URL(database.uri);
  uri.pathname = `/bench_${Date.now()}`;
  uri.searchParams.set('monitorCommands', 'true');
  const service = await createServer({ appDir: APP_DIR, databaseUri: uri.toString() });
  const loadStarted = Date.now();
  await load(service.context);
  console.log(
    `loaded ${ARTICLES} articles, ${AUTHORS} authors, ${CATEGORIES} categories, ${TAGS} tags in ${Date.now() - loadStarted} ms`,
  );

  // commands on the API's content collections (auth lookups of users-permissions are not the read path's)
  const contentCollections = new Set(
    service.context.registry
      .listContentTypes()
      .filter((ct) => ct.namespace === 'api')
      .map((ct) => ct.collectionName),
  );
  let commands = 0;
  service.context.connection.getClient().on('commandStarted', (event) => {
    const target: unknown = event.command[event.commandName];
    if (typeof target === 'string' && contentCollections.has(target)) commands += 1;
  });

  const { url } = await service.start({ host: '127.0.0.1', port: 0 });
  const probe = await fetch(`${url}${PATH}`);
  const sample = (await probe.json()) as { data: unknown[]; meta: { pagination: { total: number } } };
  if (probe.status !== 200) throw new Error(`bench: probe answered ${probe.status}: ${JSON.stringify(sample)}`);
  console.log(`GET ${PATH}\n  → ${sample.data.length} entries of ${sample.meta.pagination.total}`);

  commands = 0;
  const result = await autocannon(`${url}${PATH}`);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // requests autocannon left in flight finish (and are counted)
  const perRequest = result.requests.sent > 0 ? commands / result.requests.sent : 0;
  console.log(
    `autocannon -c ${CONNECTIONS} -d ${DURATION_S}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors`,
  );
  console.log(
    `  req/s ${result.requests.average.toFixed(0)}   latency p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`,
  );
  console.log(`  MongoDB commands per request: ${perRequest.toFixed(2)}`);

  await service.stop();
  await database.stop();
}

function autocannon(target: string): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [AUTOCANNON, '-c', String(CONNECTIONS), '-d', String(DURATION_S), '-j', target],
      { maxBuffer: 16 * 1024 * 1024, timeout: (DURATION_S + 30) * 1000 },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(JSON.parse(stdout) as AutocannonResult);
      },
    );
  });
}

/** a document as stored: integer `_id` (docs/ARCHITECTURE.md) */
interface StoredDoc {
  _id: number;
  [key: string]: unknown;
}

type ServiceContext = Awaited<ReturnType<typeof createServer>>['context'];

export async function load(context: ServiceContext): Promise<void> {
  const db = context.connection.db;
  if (!db) throw new Error('not connected');
  const collection = (uid: string): Collection<StoredDoc> => {
    const ct = context.registry.contentType(uid);
    if (!ct) throw new Error(`no ${uid}`);
    return db.collection<StoredDoc>(ct.collectionName);
  };
  const now = new Date();
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  await collection('api::author.author').insertMany(
    range(AUTHORS).map((id) => ({
      _id: id,
      name: `Author ${id}`,
      email: `author${id}@example.com`,
      active: true,
      rank: id % 10,
      address: { id, street: `${id} Main St`, city: 'Paris' },
      createdAt: now,
      updatedAt: now,
    })),
  );
  await collection('api::category.category').insertMany(
    range(CATEGORIES).map((id) => ({
      _id: id,
      name: `Category ${id}`,
      slug: `category-${id}`,
      sortOrder: id,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await collection('api::tag.tag').insertMany(
    range(TAGS).map((id) => ({
      _id: id,
      name: `Tag ${id}`,
      slug: `tag-${id}`,
      weight: id / 10,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const kinds = ['news', 'opinion', 'review', 'tutorial'];
  const articles = range(ARTICLES).map((id) => ({
    _id: id,
    title: `Article ${id}`,
    slug: `article-${id}`,
    summary: `Summary of article ${id}.`,
    body: `# Article ${id}\n\nBody.`,
    kind: kinds[id % kinds.length],
    publishDate: '2024-01-01',
    readingTime: id % 30,
    views: Long.fromNumber(1000 + id),
    rating: (id % 50) / 10,
    price: 9.99,
    featured: id % 7 === 0,
    metadata: null,
    author: (id % AUTHORS) + 1,
    category: (id % CATEGORIES) + 1,
    tags: [(id % TAGS) + 1, ((id * 7) % TAGS) + 1, ((id * 13) % TAGS) + 1],
    reviewer: null,
    seo: { id, metaTitle: `Article ${id}`, noIndex: false, metaSocial: [] },
    links: [],
    blocks: [],
    publishedAt: id % 10 === 0 ? null : now,
    locale: 'en',
    localeGroup: id,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < articles.length; i += 1000)
    await collection('api::article.article').insertMany(articles.slice(i, i + 1000));
  const counters = db.collection<{ _id: string; seq: number }>('counters');
  const seqs: [string, number][] = [
    [collection('api::author.author').collectionName, AUTHORS],
    [collection('api::category.category').collectionName, CATEGORIES],
    [collection('api::tag.tag').collectionName, TAGS],
    [collection('api::article.article').collectionName, ARTICLES],
    [componentCounterKey('shared.seo'), ARTICLES],
    [componentCounterKey('shared.address'), AUTHORS],
  ];
  for (const [key, seq] of seqs) await counters.updateOne({ _id: key }, { $set: { seq } }, { upsert: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
