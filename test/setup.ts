// Global mocha setup: one database server for the whole run. With MONGODB_URI set the suite runs
// against that real MongoDB; otherwise against the embedded engine, in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine } from '../src/engine/index.js';

/** Names the seed template database (test/helpers/seed.ts), for the clean-up at the end of the run. */
export const TEMPLATE_ENV = 'CS_TEST_SEED_TEMPLATE';

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
    // the seed template (test/helpers/seed.ts) outlives the suites: on a real MongoDB, drop it
    const template = process.env[TEMPLATE_ENV];
    if (template && !stopEngine) {
      const client = await MongoClient.connect(template);
      await client.db().dropDatabase();
      await client.close();
    }
    await stopEngine?.();
    rmSync(runTmp, { recursive: true, force: true });
  },
};
