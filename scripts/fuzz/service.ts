// The service under fuzz, in a process of its own (so a request that blocks its event loop cannot
// stop the fuzzer's clock): the fixture app, seeded as the tests seed it, on the embedded engine
// in memory; prints one JSON line `{ url, databaseUri, accessKey }`, then logs every error the
// service logs as JSON lines on stderr. Stops on SIGTERM or after --lifetime seconds.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createServer } from '../../src/app.js';
import { startEngine } from '../../src/engine/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { PUBLICATION_APP } from '../../test/helpers/fixtures.js';
import { seedPublication } from '../../test/helpers/seed.js';

const { values } = parseArgs({ options: { lifetime: { type: 'string', default: '3600' } } });
const logger = pino({ level: 'error', base: undefined }, process.stderr);
// an in-memory engine of its own, where the seed's template database goes too (the tests' server otherwise)
const engine = await startEngine({ host: '127.0.0.1', port: 0 });
process.env.CS_TEST_MONGODB_URI = engine.uri;
const databaseUri = `${engine.uri}/fuzz`;
const service = await createServer({ appDir: PUBLICATION_APP, databaseUri, config: { env: 'test' }, logger });
await seedPublication(service.context);
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
const { accessKey } = await createApiToken(service.context, { name: 'fuzz', type: 'full-access' });
process.stdout.write(`${JSON.stringify({ url, databaseUri, accessKey })}\n`);

const stop = async () => {
  await service.stop();
  await engine.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
setTimeout(() => void stop(), Number(values.lifetime) * 1000).unref();
