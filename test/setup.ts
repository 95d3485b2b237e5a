// Global mocha setup: one database server for the whole run. With MONGODB_URI set the suite runs
// against that real MongoDB; otherwise against the embedded engine, in memory.
import { startEngine } from '../src/engine/index.js';

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
  },
};
