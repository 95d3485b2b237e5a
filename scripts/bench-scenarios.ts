// Runs the judged load scenarios of the shared bench (run.mjs, load-data.mjs) against this service:
//   npm run bench:scenarios -- --shared ../shared [--articles 10000] [--only a,b] [--duration 10]
//                              [--runs 2] [--ceiling] [--memory] [--out /tmp/run.json]
// The service runs in THIS process on its default, the embedded engine in a worker thread with
// its data in a temporary directory (`--memory`: without persistence); the load generator runs in
// a child process. Seeds the conformance data over REST, stores the generated articles directly in
// the storage layout (bench/stored-articles.ts), restarts the service on that data (start-up
// time), then prints resident memory, per-request figures (documents and index keys examined,
// MongoDB commands: deterministic, unlike req/s on a shared machine) and runs run.mjs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { createServer, type ContentService } from '../src/app.js';
import { startEngineThread, type EngineThread } from '../src/database/engine-thread.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';
import { storedArticleSink } from '../bench/stored-articles.js';

const { values } = parseArgs({
  options: {
    shared: { type: 'string' },
    only: { type: 'string' },
    duration: { type: 'string', default: '10' },
    articles: { type: 'string', default: '10000' },
    ceiling: { type: 'boolean', default: false },
    memory: { type: 'boolean', default: false },
    out: { type: 'string', default: '/tmp/bench-run.json' },
    runs: { type: 'string', default: '1' },
  },
});
const shared = resolve(values.shared ?? '../shared');
for (const needed of ['bench/run.mjs', 'bench/load-data.mjs', 'conformance/seed.mjs']) {
  if (!existsSync(join(shared, needed))) {
    console.error(
      `bench-scenarios: ${join(shared, needed)} is missing: pass the shared directory with --shared DIR (default ../shared)`,
    );
    process.exit(2);
  }
}
// the service runs as in production, which requires its secrets: one pair for the whole run, so
// the token made before the restart stays valid after it
process.env.JWT_SECRET ??= randomBytes(32).toString('base64');
process.env.API_TOKEN_SALT ??= randomBytes(32).toString('base64');

const articles = Number(values.articles);
if (!Number.isInteger(articles) || articles < 5000) {
  console.error('bench-scenarios: --articles needs an integer >= 5000 (run.mjs reads article #5000)');
  process.exit(2);
}

// run.mjs imports autocannon: give a copy of the harness this project's node_modules
const harness = join(tmpdir(), 'content-service-bench');
mkdirSync(harness, { recursive: true });
for (const f of readdirSync(join(shared, 'bench')))
  if (f.endsWith('.mjs') || f.endsWith('.json')) copyFileSync(join(shared, 'bench', f), join(harness, f));
// always this checkout's (a link left by another checkout may point at one since removed)
rmSync(join(harness, 'node_modules'), { force: true });
symlinkSync(resolve('node_modules'), join(harness, 'node_modules'));

function run(
  args: string[],
  env: Record<string, string> = {},
  capture = false,
): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!capture) process.stdout.write(d);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 1_800_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 1, out });
    });
  });
}

const dataDir = values.memory ? undefined : mkdtempSync(join(tmpdir(), 'content-service-bench-data-'));
let engine: EngineThread | undefined;
let service: ContentService | undefined;

/** The service on the embedded engine as `start` runs it (a worker thread), commands monitored. */
async function startService(): Promise<{ url: string; engineUri: string; ms: number }> {
  const t0 = performance.now();
  engine = await startEngineThread({ host: '127.0.0.1', dataDir });
  const uri = new URL(`${engine.uri.replace(/\/?$/, '/')}content`);
  uri.searchParams.set('monitorCommands', 'true');
  // loading 100k+ articles keeps the engine busy for long stretches (batches, journal compaction)
  // on a shared machine: the driver's monitor must not give up on it meanwhile
  uri.searchParams.set('connectTimeoutMS', '600000');
  uri.searchParams.set('socketTimeoutMS', '0');
  uri.searchParams.set('serverSelectionTimeoutMS', '600000');
  service = await createServer({
    appDir: join(shared, 'conformance'),
    databaseUri: uri.toString(),
    config: { env: 'production' },
  });
  const { url } = await service.start({ port: 0, host: '127.0.0.1' });
  return { url, engineUri: engine.uri, ms: performance.now() - t0 };
}

async function stopService(): Promise<void> {
  await service?.stop();
  await engine?.stop();
  service = undefined;
  engine = undefined;
}

const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const scenarioPaths = (category: string, term: string, articleId: string): Array<[string, string, string?]> => [
  [
    'a',
    `/api/articles?filters[category][name][$eq]=${category}&populate[author][fields][0]=name&populate[tags][fields][0]=name&fields[0]=title&fields[1]=publishDate&sort[0]=publishDate:desc&pagination[pageSize]=25`,
  ],
  ['b', `/api/articles/${articleId}?populate=*`],
  ['c', '/api/articles?pagination[pageSize]=25'],
  [
    'd',
    `/api/articles?filters[title][$containsi]=${term}&pagination[page]=2&pagination[pageSize]=25&pagination[withCount]=true`,
  ],
  [
    'e',
    '/graphql',
    JSON.stringify({
      query: `query BenchNested($category: String!) { articles(filters: { category: { name: { eq: $category } } }, pagination: { pageSize: 25 }, sort: ["publishDate:desc"]) { data { attributes { title author { data { attributes { name } } } tags { data { attributes { name } } } category { data { attributes { name articles(pagination: { pageSize: 5 }) { data { attributes { title } } } } } } } } } }`,
      variables: { category },
    }),
  ],
];

/** Per request of each scenario: documents and index keys the engine examined, MongoDB commands, latency. */
async function perRequestFigures(url: string, engineUri: string, token: string): Promise<void> {
  const client = await MongoClient.connect(engineUri);
  const examined = async () => {
    const status = await client.db('admin').command({ serverStatus: 1 });
    const q = status.metrics.queryExecutor as { scanned: unknown; scannedObjects: unknown };
    return { keys: Number(q.scanned), docs: Number(q.scannedObjects) };
  };
  let commands = 0;
  service?.context.connection.getClient().on('commandStarted', () => commands++);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const found = await fetch(`${url}/api/articles?filters[slug][$startsWith]=bench-005000-&pagination[pageSize]=1`, {
    headers,
  });
  const articleId = String(((await found.json()) as { data: Array<{ id: number }> }).data[0]?.id);
  console.log(
    '\nper request (20 sequential requests each): documents examined, index keys examined, MongoDB commands, ms',
  );
  for (const [key, path, body] of scenarioPaths('Technology', 'guide', articleId)) {
    const n = 20;
    const before = await examined();
    commands = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const res = await fetch(url + path, { method: body ? 'POST' : 'GET', headers, body });
      if (res.status !== 200) throw new Error(`${key}: HTTP ${res.status}`);
      await res.arrayBuffer();
    }
    const ms = (performance.now() - t0) / n;
    const after = await examined();
    console.log(
      `  ${key}  docs ${((after.docs - before.docs) / n).toFixed(1).padStart(8)}  keys ${((after.keys - before.keys) / n).toFixed(1).padStart(8)}  commands ${(commands / n).toFixed(2)}  ${ms.toFixed(1)} ms`,
    );
  }
  await client.close();
}

let status = 1;
try {
  const rssBefore = rssMb();
  const first = await startService();
  const { accessKey } = await createApiToken(service!.context, { name: 'bench', type: 'full-access' });
  status = (await run([join(shared, 'conformance', 'seed.mjs')], { BASE_URL: first.url, TOKEN: accessKey })).code;
  if (status !== 0) throw new Error('seeding failed');
  const sink = await storedArticleSink(service!.context, articles);
  const t0 = performance.now();
  const load = await run(
    [join(harness, 'load-data.mjs'), sink.url, 'unused', '--articles', String(articles), '--concurrency', '16'],
    {},
    true,
  );
  const stored = await sink.close();
  const loadSeconds = (performance.now() - t0) / 1000;
  if (load.code !== 0 || stored !== articles) throw new Error(`loading failed (${stored} of ${articles} stored)`);
  console.log(
    `stored ${stored} articles directly in ${loadSeconds.toFixed(1)} s (${(stored / loadSeconds).toFixed(0)}/s)`,
  );
  const loadFile = join(harness, 'load.json');
  writeFileSync(loadFile, load.out.trim().split('\n').pop() ?? '{}');

  // a persisted engine is restarted on the data (start-up time); an in-memory one would lose it
  let serving = first;
  if (dataDir) {
    await stopService();
    serving = await startService();
    console.log(`start-up on ${stored} articles (persisted): ${(serving.ms / 1000).toFixed(2)} s`);
  } else console.log('in memory: the service is not restarted (it would start empty)');
  const rss = rssMb();
  console.log(
    `resident memory: ${rss.toFixed(0)} MB (before the service: ${rssBefore.toFixed(0)} MB; ${(((rss - rssBefore) * 1024) / stored).toFixed(2)} KB per article, service included)`,
  );
  await perRequestFigures(serving.url, serving.engineUri, accessKey);

  const args = [
    join(harness, 'run.mjs'),
    serving.url,
    accessKey,
    '--duration',
    values.duration ?? '10',
    '--runs',
    values.runs ?? '1',
    '--pid',
    String(process.pid),
    '--load-info',
    loadFile,
    '--out',
    values.out ?? '/tmp/bench-run.json',
  ];
  if (values.only) args.push('--only', values.only);
  if (values.ceiling) args.push('--ceiling');
  status = (await run(args)).code;
} catch (err) {
  console.error(`bench-scenarios: ${err instanceof Error ? err.message : String(err)}`);
  status = 1;
} finally {
  await stopService();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
