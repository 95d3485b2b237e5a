// CPU time per request, per thread of THIS process (the service's HTTP thread, the engine worker),
// for a request sent N times by a load generator in a child process (bench/request-loop.mjs), so
// that neither the client's work nor other processes' load is counted. Linux only (/proc).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** clock ticks per second of /proc/<pid>/task/<tid>/stat (USER_HZ, 100 on Linux) */
const TICKS_PER_SECOND = 100;

/** utime + stime of every thread of this process, in ticks, by thread id */
function threadTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks;
}

export interface ThreadCpu {
  /** the event loop of the HTTP server (Express, the driver, BSON, JSON) */
  httpMs: number;
  /** the busiest other thread: the embedded engine's worker */
  engineMs: number;
  /** every thread of the process (GC helpers, libuv pool included) */
  totalMs: number;
}

export interface RequestSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** CPU milliseconds per request, per thread, over `requests` requests on `connections` keep-alive connections. */
export async function cpuPerRequest(spec: RequestSpec, requests: number, connections: number): Promise<ThreadCpu> {
  const before = threadTicks();
  const code = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./request-loop.mjs', import.meta.url)), String(requests), String(connections)],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, REQUEST_SPEC: JSON.stringify(spec) } },
    );
    child.on('exit', (status) => done(status ?? 1));
  });
  if (code !== 0) throw new Error(`request loop failed (exit ${code})`);
  const after = threadTicks();
  const perRequest = (ticks: number) => ((ticks / TICKS_PER_SECOND) * 1000) / requests;
  let total = 0;
  let engine = 0;
  for (const [tid, ticks] of after) {
    const used = ticks - (before.get(tid) ?? 0);
    total += used;
    if (tid !== process.pid) engine = Math.max(engine, used);
  }
  const http = (after.get(process.pid) ?? 0) - (before.get(process.pid) ?? 0);
  return { httpMs: perRequest(http), engineMs: perRequest(engine), totalMs: perRequest(total) };
}
