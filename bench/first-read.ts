// Start-up of the whole service on kept bench data (bench:scenarios --data DIR) and the time of
// the first reads after it: the service as `start` runs it (the engine in a worker thread), each
// start in a fresh child process on a fresh copy of the data.
//   node --import tsx bench/first-read.ts --shared ../shared --data DIR [--runs 3] [--kill9 3000]
// --kill9 N: before the timed starts, a child starts on the data, changes N articles in place
// (each a journal record) and kills itself with SIGKILL: the starts replay that journal.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServer, type ContentService } from '../src/app.js';
import { startEngineThread, type EngineThread } from '../src/database/engine-thread.js';
import type { Logger } from '../src/logger.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const SELF = fileURLToPath(import.meta.url);
const { values } = parseArgs({
  options: {
    shared: { type: 'string', default: '../shared' },
    data: { type: 'string' },
    runs: { type: 'string', default: '3' },
    kill9: { type: 'string' },
    role: { type: 'string' },
    secrets: { type: 'string' },
  },
});
const shared = resolve(values.shared ?? '../shared');

const t0 = performance.now();
/** when the engine's events arrived, ms after the start */
const timeline: Record<string, number> = {};
const eventLogger = (): Logger => {
  const note = (fields: { engine?: string; ms?: number }) => {
    if (!fields.engine) return;
    timeline[fields.engine] ??= Math.round(performance.now() - t0);
    // the engine's own account of the work (ms spent decoding or building, in its thread)
    if (typeof fields.ms === 'number') timeline[`${fields.engine} work`] ??= fields.ms;
  };
  return { info: note, warn: note, error: note } as unknown as Logger;
};

async function startService(dataDir: string): Promise<{ engine: EngineThread; service: ContentService; url: string }> {
  const engine = await startEngineThread({ host: '127.0.0.1', dataDir, logger: eventLogger() });
  timeline.listening = Math.round(performance.now() - t0);
  const uri = new URL(`${engine.socketUri.replace(/\/?$/, '/')}content`);
  const service = await createServer({
    appDir: join(shared, 'conformance'),
    databaseUri: uri.toString(),
    config: { env: 'production' },
  });
  await engine.decoded; // as `start` does (see app.ts)
  const { url } = await service.start({ port: 0, host: '127.0.0.1' });
  return { engine, service, url };
}

const READS: Array<[string, string]> = [
  ['c', '/api/articles?pagination[pageSize]=25'],
  ['b', '/api/articles?filters[slug][$startsWith]=bench-005000-&populate=*'],
  [
    'a',
    '/api/articles?filters[category][name][$eq]=Technology&populate[author][fields][0]=name&populate[tags][fields][0]=name&fields[0]=title&fields[1]=publishDate&sort[0]=publishDate:desc&pagination[pageSize]=25',
  ],
];

/** Child: times the start and the first reads, prints one JSON line, dies without a clean stop. */
async function timed(dataDir: string): Promise<void> {
  const { service, url } = await startService(dataDir);
  const ready = performance.now() - t0;
  const { accessKey } = await createApiToken(service.context, {
    name: `first-read ${Date.now()}`,
    type: 'full-access',
  });
  const headers = { authorization: `Bearer ${accessKey}` };
  const reads: Record<string, number> = {};
  for (const [key, path] of READS) {
    const t = performance.now();
    const res = await fetch(url + path, { headers });
    if (res.status !== 200) throw new Error(`${key}: HTTP ${res.status}`);
    await res.arrayBuffer();
    reads[key] = Math.round(performance.now() - t);
  }
  const total = performance.now() - t0;
  process.stdout.write(
    `${JSON.stringify({ readyMs: Math.round(ready), firstReadsMs: reads, untilAnsweredMs: Math.round(total), timeline, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) })}\n`,
  );
  process.kill(process.pid, 'SIGKILL');
}

/** Child: changes `n` articles in place through the service's driver, then SIGKILL. */
async function dirty(dataDir: string, n: number): Promise<void> {
  const { service } = await startService(dataDir);
  const coll = service.context.connection.db!.collection<{ _id: number }>('articles');
  const ids = (
    await coll
      .find({}, { projection: { _id: 1 } })
      .limit(n)
      .toArray()
  ).map((d) => d._id);
  for (let i = 0; i < ids.length; i += 100)
    await coll.bulkWrite(
      ids
        .slice(i, i + 100)
        .map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { summary: `edited ${_id}` } } } })),
      { ordered: false },
    );
  process.kill(process.pid, 'SIGKILL');
}

function child(role: string, dir: string, env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    const args = ['--import', 'tsx', SELF, '--role', role, '--data', dir, '--shared', shared];
    if (values.kill9) args.push('--kill9', values.kill9);
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', fail);
    p.on('exit', () => done(out.trim().split('\n').pop() ?? ''));
  });
}

async function main(): Promise<void> {
  if (values.role === 'time') return timed(values.data!);
  if (values.role === 'dirty') return dirty(values.data!, Number(values.kill9));
  const kept = values.data ? resolve(values.data) : undefined;
  if (!kept) throw new Error('--data DIR (kept by bench:scenarios --data DIR) is required');
  // the service runs as in production (secrets required); a fresh pair is fine: tokens are made per start
  const env = {
    JWT_SECRET: randomBytes(32).toString('base64'),
    API_TOKEN_SALT: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
  };
  const marker = JSON.parse(readFileSync(join(kept, 'loaded.json'), 'utf8')) as { articles: number };
  const source = join(kept, 'engine');
  const base = `${kept}-first-read`;
  rmSync(base, { recursive: true, force: true });
  cpSync(source, base, { recursive: true });
  rmSync(join(base, 'LOCK'), { force: true });
  try {
    if (values.kill9) {
      await child('dirty', base, env);
      rmSync(join(base, 'LOCK'), { force: true });
      console.log(`${marker.articles} articles, ${values.kill9} changed in place, then kill -9`);
    } else console.log(`${marker.articles} articles, clean start`);
    for (let i = 0; i < Number(values.runs); i++) {
      const copy = `${base}-run`;
      rmSync(copy, { recursive: true, force: true });
      cpSync(base, copy, { recursive: true });
      try {
        console.log(await child('time', copy, env));
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
