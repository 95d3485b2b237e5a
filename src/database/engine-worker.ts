// Worker thread running the embedded engine, so database work and HTTP work use separate cores
// (the engine speaks the wire protocol on 127.0.0.1, and on a Unix domain socket for this process). Started by engine-thread.ts, to
// which it posts the engine's events (recovery, compaction, journal failures) for the service's log.
import { parentPort, workerData } from 'node:worker_threads';
import { startEngine } from '../engine/index.js';
import type { EngineWorkerData, WorkerMessage } from './engine-thread.js';

const port = parentPort;
if (!port) throw new Error('engine-worker.ts must run in a worker thread');
const options = workerData as EngineWorkerData;
const post = (message: WorkerMessage) => port.postMessage(message);

startEngine({
  host: options.host,
  port: 0,
  socketPath: options.socketPath,
  dataDir: options.dataDir,
  repair: options.repair,
  transactions: options.transactions,
  log: (event) => post({ log: event }),
}).then(
  (engine) => {
    port.on('message', (message: unknown) => {
      if (message !== 'stop' || options.ignoreStop) return;
      engine.stop().then(
        () => post({ stopped: true }),
        (err: unknown) => post({ stopped: true, error: String(err) }),
      );
    });
    post({ uri: engine.uri, socketUri: engine.socketUri });
    void engine.decoded.then(() => post({ decoded: true }));
  },
  (err: unknown) => {
    post({
      error: err instanceof Error ? err.message : String(err),
      name: err instanceof Error ? err.constructor.name : 'Error',
    });
  },
);
