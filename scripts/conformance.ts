// Replays a recording of real Strapi v4 answers (the conformance corpus: schemas/, config/,
// seed.mjs, compare.mjs, expected/) against this service:
//   npm run conformance [-- <recording dir>] [--only 3,6,9] [--quiet] [--report FILE]
// The directory defaults to ../shared/conformance (where the corpus sits beside a checkout).
// Starts the service on the recording's app (embedded engine, in memory) on 127.0.0.1, creates a
// full-access API token, seeds through REST, runs compare.mjs, stops. Bounded in time.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from '../src/app.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const { values, positionals } = parseArgs({
  options: {
    shared: { type: 'string' },
    only: { type: 'string' },
    report: { type: 'string', default: '/tmp/compare-report.json' },
    quiet: { type: 'boolean' },
  },
  allowPositionals: true,
});
const dir = resolve(positionals[0] ?? values.shared ?? '../shared/conformance');
const missing = ['compare.mjs', 'seed.mjs', 'expected', 'schemas'].filter((name) => !existsSync(join(dir, name)));
if (missing.length > 0) {
  console.error(
    `conformance: no recording at ${dir} (missing ${missing.join(', ')}): give its directory, npm run conformance -- <dir>`,
  );
  process.exit(2);
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done(code ?? 1);
    });
  });
}

const service = await createServer({ appDir: dir, memory: true, config: { env: 'test' } });
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
const { accessKey } = await createApiToken(service.context, { name: 'conformance', type: 'full-access' });
let code = await run(process.execPath, [resolve(dir, 'seed.mjs')], { BASE_URL: url, TOKEN: accessKey });
if (code === 0) {
  const args = [
    resolve(dir, 'compare.mjs'),
    url,
    resolve(dir, 'expected'),
    '--token',
    accessKey,
    '--report',
    values.report ?? '/tmp/compare-report.json',
  ];
  if (values.only) args.push('--only', values.only);
  if (values.quiet) args.push('--quiet');
  code = await run(process.execPath, args, {});
}
await service.stop();
process.exit(code);
