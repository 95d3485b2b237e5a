// Child of bench/side-by-side.ts: the service of ONE checkout (CHECKOUT, its own src/) on the
// embedded engine in a worker thread over DATA, as `start` runs it; prints one line
// `@@ready {"url","token","articleId","pid"}` once it answers, then serves until SIGTERM.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Service {
  start(options: { port: number; host: string }): Promise<{ url: string }>;
  stop(): Promise<void>;
  context: unknown;
}
interface Engine {
  socketUri: string;
  stop(): Promise<void>;
}

const checkout = process.env.CHECKOUT ?? '.';
const dataDir = process.env.DATA;
const appDir = process.env.APP_DIR;
if (!dataDir || !appDir) throw new Error('side-by-side-serve: DATA and APP_DIR are required');
const load = (file: string) => import(pathToFileURL(join(checkout, file)).href);

process.env.JWT_SECRET ??= randomBytes(32).toString('base64');
process.env.API_TOKEN_SALT ??= randomBytes(32).toString('base64');
const { startEngineThread } = (await load('src/database/engine-thread.ts')) as {
  startEngineThread(options: { host: string; dataDir: string }): Promise<Engine>;
};
const { createServer } = (await load('src/app.ts')) as {
  createServer(options: { appDir: string; databaseUri: string; config: { env: string } }): Promise<Service>;
};
const { createApiToken } = (await load('src/plugins/users-permissions/index.ts')) as {
  createApiToken(ctx: unknown, input: { name: string; type: string }): Promise<{ accessKey: string }>;
};

const engine = await startEngineThread({ host: '127.0.0.1', dataDir });
const service = await createServer({
  appDir,
  databaseUri: `${engine.socketUri.replace(/\/?$/, '/')}content`,
  config: { env: 'production' },
});
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
const { accessKey } = await createApiToken(service.context, {
  name: `side by side ${new Date().toISOString()}`,
  type: 'full-access',
});
// generated article #5000, the one the shared bench reads for b
const found = await fetch(`${url}/api/articles?filters[slug][$startsWith]=bench-005000-&pagination[pageSize]=1`, {
  headers: { authorization: `Bearer ${accessKey}` },
});
const articleId = ((await found.json()) as { data: Array<{ id: number }> }).data[0]?.id;
process.stdout.write(`@@ready ${JSON.stringify({ url, token: accessKey, articleId, pid: process.pid })}\n`);
process.once('SIGTERM', () => {
  void service
    .stop()
    .then(() => engine.stop())
    .finally(() => process.exit(0));
});
