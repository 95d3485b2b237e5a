// Global mocha setup: one database server for the whole run. With MONGODB_URI set the suite runs
// against that real MongoDB; otherwise against the embedded engine, in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine } from '../src/engine/index.js';

// Every temporary directory of the run (apps, data directories, uploads; child processes too) is
// made under one, removed at the end: os.tmpdir() reads TMPDIR on each call.
const runTmp = mkdtempSync(join(tmpdir(), 'content-service-test-'));
process.env.TMPDIR = runTmp;

let stopEngine: (() => Promise<void>) | undefined;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(30_000);
    process.env.NODE_ENV = 'test';
    if (process.env.MONGODB_URI) {
      process.env.CS_TEST_MONGODB_URI = process.env.MONGODB_URI;
      return;
    }
    const engine = await startEngine({ host: '127.0.0.1', port: 0 });
    process.env.CS_TEST_MONGODB_URI = engine.uri;
    stopEngine = () => engine.stop();
  },
  async afterAll() {
    await stopEngine?.();
    rmSync(runTmp, { recursive: true, force: true });
  },
};
