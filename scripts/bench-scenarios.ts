// Runs the judged load scenarios (../shared/bench: run.mjs, load-data.mjs) against this service:
//   npm run bench:scenarios [-- --shared ../shared --only a,b --duration 10 --runs 2 --ceiling --out /tmp/run.json]
// The service runs in THIS process on the embedded engine (its default), the load generator in a
// child process; seeds the conformance data, loads 10,000 articles over REST, then measures.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from '../src/app.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const { values } = parseArgs({
  options: {
    shared: { type: 'string', default: '../shared' },
    only: { type: 'string' },
    duration: { type: 'string', default: '10' },
    articles: { type: 'string', default: '10000' },
    ceiling: { type: 'boolean', default: false },
    out: { type: 'string', default: '/tmp/bench-run.json' },
    runs: { type: 'string', default: '1' },
  },
});
const shared = resolve(values.shared ?? '../shared');

// run.mjs imports autocannon: give a copy of the harness this project's node_modules
const harness = join(tmpdir(), 'content-service-bench');
mkdirSync(harness, { recursive: true });
for (const f of readdirSync(join(shared, 'bench')))
  if (f.endsWith('.mjs') || f.endsWith('.json')) copyFileSync(join(shared, 'bench', f), join(harness, f));
if (!existsSync(join(harness, 'node_modules'))) symlinkSync(resolve('node_modules'), join(harness, 'node_modules'));

function run(
  args: string[],
  env: Record<string, string> = {},
  stdoutFile?: string,
): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (!stdoutFile) process.stdout.write(d);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 900_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 1, out });
    });
  });
}

const service = await createServer({
  appDir: join(shared, 'conformance'),
  memory: true,
  config: { env: 'production' },
});
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
const { accessKey } = await createApiToken(service.context, { name: 'bench', type: 'full-access' });
let status = (await run([join(shared, 'conformance', 'seed.mjs')], { BASE_URL: url, TOKEN: accessKey })).code;
if (status === 0) {
  const load = await run(
    [join(harness, 'load-data.mjs'), url, accessKey, '--articles', values.articles ?? '10000'],
    {},
    'capture',
  );
  status = load.code;
  console.log(load.out.trim().split('\n').pop());
  if (status === 0) {
    const loadFile = join(harness, 'load.json');
    (await import('node:fs')).writeFileSync(loadFile, load.out.trim().split('\n').pop() ?? '{}');
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
    status = (await run(args)).code;
  }
}
await service.stop();
process.exit(status);
