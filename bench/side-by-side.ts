// Before/after on a shared machine: two checkouts' services at once, each in its own process on
// its own copy of the same kept data, loaded in alternating rounds; prints the CPU time per
// request of each one's HTTP thread and engine worker (least / median / mean of the rounds).
//   npm run bench:side-by-side -- --before ../main --after . --data /tmp/bench-10k --shared ../shared
//                                 [--only b] [--rounds 12] [--requests 1000]
// --data is a directory kept by `bench:scenarios --data DIR` (its `engine` folder is copied twice
// and the copies removed at the end). Other processes slow both sides alike within a round pair;
// the least figure is the one they disturb least.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    data: { type: 'string' },
    shared: { type: 'string', default: '../shared' },
    only: { type: 'string', default: 'b' },
    rounds: { type: 'string', default: '12' },
    requests: { type: 'string', default: '1000' },
  },
});
const data = values.data ? join(resolve(values.data), 'engine') : '';
const appDir = join(resolve(values.shared ?? '../shared'), 'conformance');
if (!values.before || !existsSync(data) || !existsSync(appDir)) {
  console.error(
    'bench:side-by-side: --before CHECKOUT, --data DIR (kept by bench:scenarios --data) and --shared DIR are required',
  );
  process.exit(2);
}
const rounds = Number(values.rounds);
const requests = Number(values.requests);

interface Side {
  name: string;
  child: ChildProcess;
  url: string;
  token: string;
  articleId: number;
  pid: number;
  copy: string;
  http: number[];
  engine: number[];
}

const paths: Record<string, (articleId: number) => string> = {
  b: (id) => `/api/articles/${id}?populate=*`,
  c: () => '/api/articles?pagination[pageSize]=25',
};
const pathOf = paths[values.only ?? 'b'];
if (!pathOf) {
  console.error(`bench:side-by-side: --only is one of ${Object.keys(paths).join(', ')}`);
  process.exit(2);
}

function startSide(name: string, checkout: string): Promise<Side> {
  const copy = mkdtempSync(join(tmpdir(), 'side-by-side-'));
  cpSync(data, copy, { recursive: true });
  const serve = fileURLToPath(new URL('./side-by-side-serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', serve], {
    cwd: resolve(checkout),
    env: { ...process.env, CHECKOUT: resolve(checkout), DATA: copy, APP_DIR: appDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    let text = '';
    let ready = false;
    // the request lines go on to stdout: read them all, or the pipe fills and the service blocks
    child.stdout?.on('data', (chunk: Buffer) => {
      if (ready) return;
      text += chunk.toString();
      const line = /@@ready (.*)\n/.exec(text);
      if (!line?.[1]) return;
      ready = true;
      const info = JSON.parse(line[1]) as { url: string; token: string; articleId: number; pid: number };
      done({ name, child, copy, http: [], engine: [], ...info });
    });
    child.on('exit', (code) => {
      if (!ready) fail(new Error(`${name} (${checkout}) exited with ${code} before it was ready`));
    });
  });
}

/** utime + stime of every thread of `pid`, in ticks (1/100 s), by thread id. */
function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks;
}

/** `count` requests on 10 keep-alive connections; every answer must be a 200. */
async function load(side: Side, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const url = side.url + pathOf!(side.articleId);
  const once = () =>
    new Promise<void>((done, fail) => {
      const req = request(url, { headers: { authorization: `Bearer ${side.token}` }, agent }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? done() : fail(new Error(`${side.name}: HTTP ${res.statusCode}`)),
        );
      });
      req.on('error', fail);
      req.end();
    });
  let sent = 0;
  const loop = async () => {
    while (sent < count) {
      sent++;
      await once();
    }
  };
  await Promise.all(Array.from({ length: 10 }, loop));
  agent.destroy();
}

async function round(side: Side): Promise<void> {
  const before = threadTicks(side.pid);
  await load(side, requests);
  const after = threadTicks(side.pid);
  let engine = 0;
  for (const [tid, ticks] of after) if (tid !== side.pid) engine = Math.max(engine, ticks - (before.get(tid) ?? 0));
  const http = (after.get(side.pid) ?? 0) - (before.get(side.pid) ?? 0);
  side.http.push((http * 10) / requests);
  side.engine.push((engine * 10) / requests);
}

function summary(values: number[]): string {
  const sorted = [...values].sort((x, y) => x - y);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return `${sorted[0]!.toFixed(3)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} / ${mean.toFixed(3)}`;
}

const sides: Side[] = [];
try {
  sides.push(await startSide('before', values.before));
  sides.push(await startSide('after', values.after ?? '.'));
  for (const side of sides) await load(side, Math.min(requests, 300)); // warm-up
  for (let i = 0; i < rounds; i++) for (const side of i % 2 === 0 ? sides : [...sides].reverse()) await round(side);
  console.log(
    `${values.only}: ms of CPU per request, least / median / mean of ${rounds} rounds of ${requests} (10 connections)`,
  );
  for (const side of sides)
    console.log(`  ${side.name.padEnd(6)}  HTTP thread ${summary(side.http)}  engine ${summary(side.engine)}`);
} finally {
  for (const side of sides) {
    if (side.child.exitCode === null) {
      const exited = new Promise((done) => side.child.once('exit', done));
      side.child.kill('SIGTERM');
      await exited;
    }
    rmSync(side.copy, { recursive: true, force: true });
  }
}
