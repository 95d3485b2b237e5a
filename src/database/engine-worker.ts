// Worker thread running the embedded engine, so database work and HTTP work use separate cores
// (the engine speaks the wire protocol on 127.0.0.1 either way). Started by engine-thread.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { startEngine } from '../engine/index.js';

interface EngineWorkerData {
  host: string;
  dataDir?: string;
}

const port = parentPort;
if (!port) throw new Error('engine-worker.ts must run in a worker thread');
const options = workerData as EngineWorkerData;

startEngine({ host: options.host, port: 0, dataDir: options.dataDir }).then(
  (engine) => {
    port.on('message', (message: unknown) => {
      if (message !== 'stop') return;
      engine.stop().then(
        () => port.postMessage({ stopped: true }),
        (err: unknown) => port.postMessage({ stopped: true, error: String(err) }),
      );
    });
    port.postMessage({ uri: engine.uri });
  },
  (err: unknown) => {
    port.postMessage({
      error: err instanceof Error ? err.message : String(err),
      name: err instanceof Error ? err.constructor.name : 'Error',
    });
  },
);
