// Replays the Strapi v4 conformance corpus against this service:
//   npm run conformance [-- --shared ../shared/conformance] [--only 3,6,9] [--keep]
// Starts the service on the fixture app (embedded engine, in memory) on 127.0.0.1, creates a
// full-access API token, seeds through REST, runs compare.mjs, stops. Bounded in time.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from '../src/app.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const { values } = parseArgs({
  options: {
    shared: { type: 'string', default: '../shared/conformance' },
    only: { type: 'string' },
    report: { type: 'string', default: '/tmp/compare-report.json' },
    quiet: { type: 'boolean' },
  },
});
const dir = resolve(values.shared ?? '../shared/conformance');

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
