// Runs the judged load scenarios of the shared bench (run.mjs, load-data.mjs) against this service:
//   npm run bench:scenarios -- --shared ../shared [--articles 10000] [--only a,b] [--duration 10]
//                              [--runs 2] [--ceiling] [--memory] [--out /tmp/run.json]
//                              [--data DIR] [--cpu N]
// The service runs in THIS process on its default, the embedded engine in a worker thread with
// its data in a temporary directory (`--memory`: without persistence); the load generator runs in
// a child process. Seeds the conformance data over REST, stores the generated articles directly in
// the storage layout (bench/stored-articles.ts), restarts the service on that data (start-up
// time), then prints resident memory, per-request figures (documents and index keys examined,
// MongoDB commands: deterministic, unlike req/s on a shared machine) and runs run.mjs.
// --data DIR keeps the loaded data in DIR and starts on it next time (no seeding, no loading).
// --cpu N sends each scenario N times (10 connections) instead of running run.mjs, and prints the
// CPU time per request of the HTTP thread, the engine worker and the whole process
// (bench/thread-cpu.ts): a figure the other processes of a shared machine do not change.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
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
import { cpuPerRequest, type ThreadCpu } from '../bench/thread-cpu.js';

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
    data: { type: 'string' },
    cpu: { type: 'string' },
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

const kept = values.data ? resolve(values.data) : undefined;
const dataDir = values.memory
  ? undefined
  : kept
    ? join(kept, 'engine')
    : mkdtempSync(join(tmpdir(), 'content-service-bench-data-'));
/** what a kept data directory holds: written once its articles are stored */
const loadedMarker = kept ? join(kept, 'loaded.json') : undefined;
let engine: EngineThread | undefined;
let service: ContentService | undefined;

/**
 * The service on the embedded engine as `start` runs it (a worker thread, reached over its Unix
 * domain socket); commands monitored when asked.
 */
async function startService(monitorCommands: boolean): Promise<{ url: string; engineUri: string; ms: number }> {
  const t0 = performance.now();
  engine = await startEngineThread({ host: '127.0.0.1', dataDir });
  const uri = new URL(`${engine.socketUri.replace(/\/?$/, '/')}content`);
  if (monitorCommands) uri.searchParams.set('monitorCommands', 'true');
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
  await engine.decoded; // as `start` does (the service listens once the engine's documents are decoded)
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

/** The id of generated article #5000, which run.mjs reads for b. */
async function benchArticleId(url: string, headers: Record<string, string>): Promise<string> {
  const found = await fetch(`${url}/api/articles?filters[slug][$startsWith]=bench-005000-&pagination[pageSize]=1`, {
    headers,
  });
  const articleId = String(((await found.json()) as { data: Array<{ id: number }> }).data[0]?.id);
  return articleId;
}

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
  const articleId = await benchArticleId(url, headers);
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

/** Seeds the conformance data over REST and stores the generated articles directly; returns how many. */
async function loadData(url: string, accessKey: string): Promise<{ stored: number; loadFile: string }> {
  const seeded = await run([join(shared, 'conformance', 'seed.mjs')], { BASE_URL: url, TOKEN: accessKey });
  if (seeded.code !== 0) throw new Error('seeding failed');
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
  if (loadedMarker)
    writeFileSync(loadedMarker, JSON.stringify({ articles: stored, loadInfo: readFileSync(loadFile, 'utf8') }));
  return { stored, loadFile };
}

/** A kept data directory's articles (its load info restored for run.mjs), or undefined when none were stored yet. */
function keptData(): { stored: number; loadFile: string } | undefined {
  if (!loadedMarker || !existsSync(loadedMarker)) return undefined;
  const marker = JSON.parse(readFileSync(loadedMarker, 'utf8')) as { articles: number; loadInfo: string };
  const loadFile = join(harness, 'load.json');
  writeFileSync(loadFile, marker.loadInfo);
  console.log(`starting on the ${marker.articles} articles kept in ${kept}`);
  return { stored: marker.articles, loadFile };
}

/** CPU time per request of each scenario, per thread (`--cpu N`). */
async function cpuFigures(url: string, token: string, requests: number): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const articleId = await benchArticleId(url, headers);
  const only = values.only?.split(',');
  console.log(
    `\nCPU ms per request, least (median) of 5 rounds of ${requests} requests on 10 connections: HTTP thread, engine worker, whole process`,
  );
  for (const [key, path, body] of scenarioPaths('Technology', 'guide', articleId)) {
    if (only && !only.includes(key)) continue;
    const spec = { url: url + path, method: body ? 'POST' : 'GET', headers, body };
    await cpuPerRequest(spec, Math.min(requests, 200), 10); // warm-up
    // other processes on the machine slow a thread down (shared caches and cores): the least of
    // five rounds is the figure least disturbed by them, the median says how much they were
    const rounds: ThreadCpu[] = [];
    for (let round = 0; round < 5; round++) rounds.push(await cpuPerRequest(spec, requests, 10));
    const figure = (pick: (cpu: ThreadCpu) => number) => {
      const sorted = rounds.map(pick).sort((x, y) => x - y);
      return `${sorted[0]!.toFixed(3)} (${sorted[2]!.toFixed(3)})`;
    };
    console.log(
      `  ${key}  http ${figure((c) => c.httpMs)}  engine ${figure((c) => c.engineMs)}  total ${figure((c) => c.totalMs)}`,
    );
  }
}

/** The shared bench's run.mjs against the service; its exit code. */
async function runBench(url: string, accessKey: string, loadFile: string): Promise<number> {
  const args = [
    join(harness, 'run.mjs'),
    url,
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
  return (await run(args)).code;
}

let status = 1;
try {
  const rssBefore = rssMb();
  const first = await startService(true);
  const { accessKey } = await createApiToken(service!.context, {
    name: `bench ${new Date().toISOString()}`, // a kept data directory holds the earlier runs' tokens
    type: 'full-access',
  });
  const previous = keptData();
  if (previous)
    console.log(`start-up on ${previous.stored} articles (persisted, kept): ${(first.ms / 1000).toFixed(2)} s`);
  const { stored, loadFile } = previous ?? (await loadData(first.url, accessKey));

  // a persisted engine is restarted on the data (start-up time); an in-memory one would lose it
  let serving = first;
  if (dataDir && !previous) {
    await stopService();
    serving = await startService(true);
    console.log(`start-up on ${stored} articles (persisted): ${(serving.ms / 1000).toFixed(2)} s`);
  } else if (!dataDir) console.log('in memory: the service is not restarted (it would start empty)');
  const rss = rssMb();
  console.log(
    `resident memory: ${rss.toFixed(0)} MB (before the service: ${rssBefore.toFixed(0)} MB; ${(((rss - rssBefore) * 1024) / stored).toFixed(2)} KB per article, service included)`,
  );
  await perRequestFigures(serving.url, serving.engineUri, accessKey);
  // Command monitoring (for the figures above) costs the HTTP thread a second decoding of every
  // reply and an event per command, which a production service does not pay: the load runs
  // without it. An in-memory engine cannot be restarted (it would start empty).
  if (dataDir) {
    await stopService();
    serving = await startService(false);
  } else console.log('in memory: the load below runs with command monitoring on (its cost included)');
  status = values.cpu
    ? (await cpuFigures(serving.url, accessKey, Number(values.cpu)), 0)
    : await runBench(serving.url, accessKey, loadFile);
} catch (err) {
  console.error(`bench-scenarios: ${err instanceof Error ? err.message : String(err)}`);
  status = 1;
} finally {
  await stopService();
  if (dataDir && !kept) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
