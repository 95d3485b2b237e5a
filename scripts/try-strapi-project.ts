// Tries the service on an existing Strapi v4 project, as a team bringing it would:
//   npm run try-project -- <project dir> [--schemas-only] [--as token|user]
// Starts the service in memory on the directory (`--schemas-only`: on a copy of its `src/` alone,
// when its config/ needs packages the project installs), prints the start-up notices, then runs two
// passes over every api content-type (create with relations linked, read back with populate=*,
// list, update, the GraphQL query): one with a full-access API token, one as a user signed up
// through /api/auth/local/register, with the JWT a front-end sends (so controllers, policies and
// middlewares reading ctx.state.user run as in production). `--as` runs one pass only. Ends with
// `token: N passed, M failed | user: N passed, M failed, K not granted`.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { logUnhandledRejections } from '../src/unhandled-rejections.js';
import { tryProject, type PassName } from './try-project/run.js';

const USAGE = 'usage: npm run try-project -- <Strapi v4 project dir> [--schemas-only] [--as token|user]';

function passesOf(flags: string[]): PassName[] {
  const at = flags.indexOf('--as');
  if (at < 0) return ['token', 'user'];
  const name = flags[at + 1];
  if (name !== 'token' && name !== 'user') throw new Error(USAGE);
  return [name];
}

async function main(): Promise<void> {
  const [dirArg, ...flags] = process.argv.slice(2);
  if (!dirArg) throw new Error(USAGE);
  const passes = passesOf(flags);
  let appDir = resolve(dirArg);
  if (flags.includes('--schemas-only')) {
    const copy = mkdtempSync(join(tmpdir(), 'cs-try-'));
    cpSync(join(appDir, 'src'), join(copy, 'src'), { recursive: true });
    appDir = copy;
  }
  // as `content-service start` (and Strapi) runs in the project's directory: seeds reading
  // `data/uploads/...` relative to it find their files
  process.chdir(appDir);
  // as content-service start: a project's call left without await does not end the trial
  logUnhandledRejections(() => undefined);
  const report = await tryProject(appDir, passes);
  for (const notice of report.notices) console.log(`notice: ${notice}`);
  if (report.startError !== undefined) {
    console.log(`did not start: ${report.startError}`);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
    return;
  }
  // what the service logged while it was tried (a 500's error, a hook's failure)
  for (const log of report.logs) console.log(`log: ${log}`);
  for (const pass of report.passes) for (const failure of pass.failed) console.log(`failed [${pass.name}]: ${failure}`);
  const figures = report.passes.map(
    (pass) =>
      `${pass.name}: ${pass.passed} passed, ${pass.failed.length} failed` +
      (pass.notGranted > 0 ? `, ${pass.notGranted} not granted` : ''),
  );
  console.log(figures.join(' | '));
  if (report.passes.some((pass) => pass.failed.length > 0)) process.exitCode = 1;
}

await main();
