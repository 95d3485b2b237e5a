// Start-up of the service on persisted data, after a clean stop and after kill -9 in the middle of
// writes, timed as `start` runs it (the engine in its worker thread, the service listening once
// the engine's documents are decoded), with every acknowledged write checked after the restart.
//   npm run bench:service-startup -- --shared ../shared --data DIR [--runs 3] [--journal-mb 24] [--writers 8] [--dist | --entry [--node-args ARGS]]
// DIR is a data directory kept by `npm run bench:scenarios -- --data DIR` (its `engine/`). Each run
// works on a fresh copy of it, in child processes:
// - clean: a start on the copy as it is;
// - kill -9: a writer process opens the copy and runs `--writers` parallel clients updating
//   articles (a new `summary`, as an edit through the API stores the whole new version) and
//   inserting new ones, reporting each acknowledged write; once the journal holds `--journal-mb`
//   MB, this process kills it with SIGKILL, writes still in flight; then a start on what it left.
// A start prints the time until the service listens, the engine's CPU included (the process's
// CPU), and reads back every write the writer reported acknowledged: a missing one fails the run.
// The time counts from the engine's start; the service's modules are loaded before it (importMs:
// compiled by tsx from the sources, or with --dist the build of `npm run build`, as the Docker
// image runs it). With --entry, a start is `content-service start` itself (bin/content-service.mjs,
// production, the conformance app): timed from the process's spawn to its "listening" line, module
// loading included, with the process's CPU and its busiest other thread's (the engine's) read then.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MongoClient, type Document } from 'mongodb';
import { startEngine } from '../src/engine/index.js';

const SELF = fileURLToPath(import.meta.url);
const DB = 'content';
/** a child that has not finished by then is killed (the bench stays bounded) */
const CHILD_LIMIT_MS = 300_000;

const { values } = parseArgs({
  options: {
    shared: { type: 'string', default: '../shared' },
    data: { type: 'string' },
    runs: { type: 'string', default: '3' },
    'journal-mb': { type: 'string', default: '24' },
    writers: { type: 'string', default: '8' },
    role: { type: 'string' },
    dir: { type: 'string' },
    acks: { type: 'string' },
    dist: { type: 'boolean', default: false },
    entry: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
});

type Article = Document & { _id: number };

interface Ack {
  kind: 'update' | 'insert';
  id: number;
  summary: string;
}

/** Child: writes until killed, one line per acknowledged write on stdout. */
async function write(dir: string, writers: number): Promise<void> {
  const engine = await startEngine({ dataDir: dir });
  const client = await MongoClient.connect(engine.uri);
  const articles = client.db(DB).collection<Article>('articles');
  const template = await articles.findOne({}, { sort: { _id: -1 } });
  if (!template) throw new Error('no articles in the data directory');
  const ids = (await articles.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
  let nextId = template._id + 1_000_000;
  const ack = (a: Ack) => process.stdout.write(`${JSON.stringify(a)}\n`);
  const writer = async (w: number) => {
    for (let n = 0; ; n++) {
      const summary = `edited by writer ${w}, write ${n}`;
      if (n % 4 === 3) {
        const id = nextId++;
        await articles.insertOne({ ...template, _id: id, slug: `crash-${id}`, localeGroup: id, summary });
        ack({ kind: 'insert', id, summary });
      } else {
        const id = ids[(w * 7919 + n * 104_729) % ids.length] ?? 1;
        await articles.updateOne({ _id: id }, { $set: { summary, updatedAt: new Date() } });
        ack({ kind: 'update', id, summary });
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
}

/** Child: the service started as `start` does; prints its timing, then checks the acknowledged writes. */
async function start(dir: string, acksFile: string | undefined): Promise<void> {
  process.env.JWT_SECRET ??= randomBytes(32).toString('base64');
  process.env.API_TOKEN_SALT ??= randomBytes(32).toString('base64');
  const imported = performance.now();
  const { startEngineThread, createServer } = await serviceModules();
  const importMs = performance.now() - imported;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const threads0 = threadCpuNs();
  const engine = await startEngineThread({ host: '127.0.0.1', dataDir: dir });
  const engineListening = performance.now() - t0;
  const service = await createServer({
    appDir: join(resolve(values.shared ?? '../shared'), 'conformance'),
    databaseUri: `${engine.socketUri.replace(/\/?$/, '/')}content`,
    config: { env: 'production' },
  });
  await engine.decoded;
  await service.start({ port: 0, host: '127.0.0.1' });
  const readyMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadCpuMs(threads0);
  const result: Record<string, unknown> = {
    readyMs: Math.round(readyMs),
    engineListeningMs: Math.round(engineListening),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    ...threads,
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    importMs: Math.round(importMs),
  };
  if (acksFile) result.acknowledged = await checkAcks(engine.uri, acksFile);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.kill(process.pid, 'SIGKILL'); // leaves the copy as the start left it (no stop, no compaction)
}

/**
 * `content-service start` in a process of its own, on the copy `dir`: its time from the spawn to
 * its "listening" line and its CPU then (the whole process, its main thread, its engine thread);
 * then the acknowledged writes are read back through the engine it started, and it is killed.
 */
async function startEntry(dir: string, acksFile: string | undefined): Promise<void> {
  const bin = fileURLToPath(new URL('../bin/content-service.mjs', import.meta.url));
  const app = join(resolve(values.shared ?? '../shared'), 'conformance');
  const t0 = performance.now();
  const service = spawn(
    process.execPath,
    [...nodeArgs(), bin, 'start', '--app', app, '--data', dir, '--port', '0', '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        JWT_SECRET: randomBytes(32).toString('base64'),
        API_TOKEN_SALT: randomBytes(32).toString('base64'),
      },
    },
  );
  const timer = setTimeout(() => service.kill('SIGKILL'), CHILD_LIMIT_MS);
  // when each step was logged (pino's \`time\`), from the spawn: the engine's recovery (before it
  // listens) and decoding (both logged by the main thread once it takes the worker's message), the
  // service built (createServer returned): who is on the critical path
  const spawnedAt = Date.now();
  const steps: Record<string, number> = {};
  const STEP_LINES: Array<[string, RegExp]> = [
    ['recoveredMs', /"time":(\d+),"engine":"recovery\.loaded"/],
    ['decodedMs', /"time":(\d+),"engine":"documents\.decoded"/],
    ['serviceBuiltMs', /"time":(\d+),[^\n]*"msg":"database: /],
  ];
  try {
    await new Promise<void>((listening, failed) => {
      let out = '';
      service.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (const [step, line] of STEP_LINES) {
          const logged = steps[step] === undefined ? line.exec(out) : null;
          if (logged) steps[step] = Number(logged[1]) - spawnedAt;
        }
        if (/listening on/.test(out)) listening();
      });
      service.on('exit', (code) => failed(new Error(`content-service start exited (${code}) before listening`)));
    });
    const readyMs = performance.now() - t0;
    const threads = threadCpuNs(service.pid ?? 0);
    const main = threads.get(String(service.pid)) ?? 0;
    const others = [...threads].filter(([tid]) => tid !== String(service.pid)).map(([, ns]) => ns);
    const ms = (ns: number) => Math.round(ns / 1e6);
    const result: Record<string, unknown> = {
      readyMs: Math.round(readyMs),
      ...steps,
      cpuMs: ms([...threads.values()].reduce((a, b) => a + b, 0)),
      mainCpuMs: ms(main),
      engineCpuMs: ms(Math.max(0, ...others)),
      rssMb: Math.round(rssKb(service.pid ?? 0) / 1024),
      // every thread's, busiest first: tsx's hooks thread, the engine, V8's GC helpers...
      threadsCpuMs: [...threads.values()]
        .sort((x, y) => y - x)
        .slice(0, 8)
        .map(ms),
    };
    if (acksFile) {
      const uri = readFileSync(join(dir, 'running-engine.uri'), 'utf8').trim();
      result.acknowledged = await checkAcks(uri, acksFile);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    clearTimeout(timer);
    service.kill('SIGKILL'); // leaves the copy as the start left it (no stop, no compaction)
  }
}

/** --node-args: options of the `node` that runs `start` (--entry), e.g. V8's GC flags to compare */
function nodeArgs(): string[] {
  return (values['node-args'] ?? '').split(' ').filter((arg) => arg !== '');
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Nanoseconds on a CPU of each thread of a process (this one by default), by thread id (Linux: schedstat), else none. */
function threadCpuNs(pid: number | 'self' = 'self'): Map<string, number> {
  const ns = new Map<string, number>();
  if (!existsSync(`/proc/${pid}/task`)) return ns;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns;
}

/**
 * CPU of the start on the main thread and on the engine's worker (the busiest other thread that
 * began after `before`: the start's critical path, whatever the machine's load does to wall time).
 */
function threadCpuMs(before: Map<string, number>): { mainCpuMs?: number; engineCpuMs?: number } {
  const after = threadCpuNs();
  if (after.size === 0) return {};
  const main = String(process.pid);
  let engine = 0;
  for (const [tid, ns] of after) if (tid !== main && !before.has(tid)) engine = Math.max(engine, ns);
  const ms = (ns: number) => Math.round(ns / 1e6);
  return { mainCpuMs: ms((after.get(main) ?? 0) - (before.get(main) ?? 0)), engineCpuMs: ms(engine) };
}

/** The service's modules: its sources through tsx, or with --dist its build (dist/). */
async function serviceModules(): Promise<{
  startEngineThread: typeof import('../src/database/engine-thread.js').startEngineThread;
  createServer: typeof import('../src/app.js').createServer;
}> {
  const from = values.dist ? '../dist' : '../src';
  const engineThread = (await import(
    `${from}/database/engine-thread.js`
  )) as typeof import('../src/database/engine-thread.js');
  const app = (await import(`${from}/app.js`)) as typeof import('../src/app.js');
  return { startEngineThread: engineThread.startEngineThread, createServer: app.createServer };
}

/** Every acknowledged write is there: the last summary acknowledged for each article, each insert. */
async function checkAcks(uri: string, acksFile: string): Promise<{ writes: number; missing: number }> {
  const acks = readFileSync(acksFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Ack);
  // the article holds its last acknowledged summary, or one whose write never reported back (in
  // flight at the kill, or acknowledged with its report lost): an earlier acknowledged one means
  // a later acknowledged write was lost
  const last = new Map<number, Ack>();
  const acknowledged = new Set<string>();
  for (const a of acks) {
    last.set(a.id, a);
    acknowledged.add(a.summary);
  }
  const client = await MongoClient.connect(uri);
  const articles = client.db(DB).collection<Article>('articles');
  let missing = 0;
  const ids = [...last.keys()];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const found = await articles.find({ _id: { $in: chunk } }, { projection: { summary: 1 } }).toArray();
    const byId = new Map(found.map((d) => [d._id, String(d.summary)]));
    for (const id of chunk) {
      const summary = byId.get(id);
      if (summary === undefined || (summary !== last.get(id)?.summary && acknowledged.has(summary))) missing++;
    }
  }
  await client.close();
  return { writes: acks.length, missing };
}

function child(role: string, dir: string, extra: string[] = []): { done: Promise<string>; pid: number } {
  const p = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SELF,
      '--role',
      role,
      '--dir',
      dir,
      '--shared',
      values.shared ?? '../shared',
      ...(values.dist ? ['--dist'] : []),
      ...(values.entry ? ['--entry', `--node-args=${values['node-args'] ?? ''}`] : []),
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const timer = setTimeout(() => p.kill('SIGKILL'), CHILD_LIMIT_MS);
  let out = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<string>((resolveDone, reject) => {
    p.on('error', reject);
    p.on('exit', () => {
      clearTimeout(timer);
      resolveDone(out);
    });
  });
  return { done, pid: p.pid ?? 0 };
}

function journalBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('journal'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

function copyOf(source: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'service-startup-'));
  cpSync(source, copy, { recursive: true });
  rmSync(join(copy, 'LOCK'), { force: true });
  return copy;
}

async function crashRun(source: string, mb: number, writers: number): Promise<string> {
  const copy = copyOf(source);
  const acksFile = `${copy}.acks`;
  try {
    const writer = child('write', copy, ['--writers', String(writers)]);
    const bytes = mb * 2 ** 20;
    const startBytes = journalBytes(copy);
    while (journalBytes(copy) - startBytes < bytes) {
      const exited = await Promise.race([writer.done.then(() => true), sleep(50).then(() => false)]);
      if (exited) throw new Error('the writer stopped before its kill');
    }
    process.kill(writer.pid, 'SIGKILL');
    const out = await writer.done;
    writeFileSync(acksFile, out);
    const journal = (journalBytes(copy) / 2 ** 20).toFixed(1);
    const started = await child('start', copy, ['--acks', acksFile]).done;
    return `${journal} MB of journal: ${started.trim()}`;
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(acksFile, { force: true });
  }
}

async function cleanRun(source: string): Promise<string> {
  const copy = copyOf(source);
  try {
    return (await child('start', copy).done).trim();
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = values.dir ?? '';
  if (values.role === 'write') return write(dir, Number(values.writers));
  if (values.role === 'start') return values.entry ? startEntry(dir, values.acks) : start(dir, values.acks);

  if (!values.data) throw new Error('--data DIR (kept by bench:scenarios --data) is required');
  const source = join(resolve(values.data), 'engine');
  if (!existsSync(source))
    throw new Error(`${source} does not exist: keep a data directory with bench:scenarios --data`);
  if (values.dist && !existsSync(fileURLToPath(new URL('../dist/app.js', import.meta.url))))
    throw new Error('--dist: build the service first (npm run build)');
  if (!existsSync(join(resolve(values.shared ?? '../shared'), 'conformance')))
    throw new Error('--shared DIR: the shared directory (its conformance app) is required');
  const runs = Number(values.runs);
  for (let i = 0; i < runs; i++) console.log(`clean start:         ${await cleanRun(source)}`);
  for (let i = 0; i < runs; i++)
    console.log(`start after kill -9: ${await crashRun(source, Number(values['journal-mb']), Number(values.writers))}`);
}

await main();
