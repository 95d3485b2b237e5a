// `npm run engine:mongosh`: starts the embedded engine in memory and drives mongosh 2.12 (from the
// npm registry through npx: 150 MB, too heavy for a devDependency; about a minute the first time,
// cached after) with scripts/mongosh/engine-tools.js: explain, db.coll.stats(), a validator and a
// rename, as a user would. Exits with mongosh's status.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startEngine } from '../src/engine/index.js';

const MONGOSH = 'mongosh@2.12.0';
const SCRIPT = fileURLToPath(new URL('./mongosh/engine-tools.js', import.meta.url));
const TIME_LIMIT_MS = 5 * 60_000;

const engine = await startEngine({ port: 0 });
const child = spawn('npx', ['--yes', MONGOSH, `${engine.uri}/mongosh_check`, '--quiet', '--norc', '--file', SCRIPT], {
  stdio: 'inherit',
});
const timer = setTimeout(() => child.kill('SIGTERM'), TIME_LIMIT_MS);
const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
clearTimeout(timer);
await engine.stop();
process.exit(code);
