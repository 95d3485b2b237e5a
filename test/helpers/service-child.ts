// Child process running the whole service on a persisted embedded engine, for tests that need a
// process of its own (e.g. under `ulimit -f`, where the kernel refuses to grow the journal: the
// write fails with EFBIG as on a full disk). Prints `url <base url>` once listening; logs go to
// stdout as pino JSON lines (LOG_LEVEL decides which).
import { createServer } from '../../src/app.js';

process.on('SIGXFSZ', () => {}); // a write past the limit then fails (EFBIG) instead of killing the process
const [appDir, dataDir] = process.argv.slice(2);
if (!appDir || !dataDir) throw new Error('usage: service-child APP_DIR DATA_DIR');
const service = await createServer({ appDir, config: { database: { dataDir } } });
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
process.stdout.write(`url ${url}\n`);
