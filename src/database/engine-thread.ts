import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EngineEvent } from '../engine/index.js';
import { engineWorkerBundle, execArgvWithoutTsx } from './engine-worker-bundle.js';
import { processAlive, releaseLockHeldBy } from '../engine/storage/lock.js';
import type { Logger } from '../logger.js';

export interface EngineThread {
  /** TCP, for other processes (the token command, mongosh) */
  uri: string;
  /** a Unix domain socket (TCP on Windows): this process's own connection, which skips the TCP stack on both threads */
  socketUri: string;
  /** settles once the engine has decoded the documents its start left encoded (see Engine.decoded) */
  decoded: Promise<void>;
  stop(): Promise<void>;
}

/** What the worker is started with. */
export interface EngineWorkerData {
  host: string;
  /** the Unix domain socket the engine also listens on */
  socketPath?: string;
  dataDir?: string;
  /** move damaged bytes of the data files aside instead of refusing to start */
  repair?: boolean;
  /** multi-document transactions (default on; off: the service writes without them, see Models.init) */
  transactions?: boolean;
  /** test hook: the worker ignores stop requests (as one busy for longer than the stop waits) */
  ignoreStop?: boolean;
}

/** What the worker posts: its URI once listening, a start-up error, an engine event, or that it stopped. */
export type WorkerMessage = {
  uri?: string;
  socketUri?: string;
  error?: string;
  name?: string;
  stopped?: boolean;
  /** the documents of the data files are decoded (see Engine.decoded) */
  decoded?: boolean;
  log?: EngineEvent;
};

/**
 * The worker: the built `.js` module, or, when running from source, the sources bundled by esbuild
 * (engine-worker-bundle.ts), else a small bootstrap that registers tsx inside the worker (module
 * hooks of the parent thread do not reach workers) and imports the `.ts` module.
 */
function createWorker(workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./engine-worker.js', import.meta.url), { workerData });
  const module = new URL('./engine-worker.ts', import.meta.url);
  const bundle = engineWorkerBundle(module);
  if (bundle) {
    const execArgv = execArgvWithoutTsx(process.execArgv);
    try {
      return new Worker(pathToFileURL(bundle), { workerData, execArgv });
    } catch {
      // an option a worker may not be given explicitly (a V8 flag): the parent's, inherited as they are
      return new Worker(pathToFileURL(bundle), { workerData });
    }
  }
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** URL of tsx's ESM API (`tsx/esm/api`), found through its package.json (works in ESM and CJS builds of this file). */
function tsxEsmApi(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const target = manifest.exports['./esm/api']?.import.default;
  if (!target) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(join(dirname(packageJson), target)).href;
}

/**
 * How long a stop waits for the engine to finish (a stop compacts a large journal into a snapshot:
 * seconds with hundreds of thousands of documents) before terminating the worker. Either way the
 * data is safe: a compaction survives being cut at any step.
 */
const STOP_WAIT_MS = 60_000;

const SOCKET_DIR_PREFIX = 'content-service-engine-';

/**
 * A private directory for the engine's socket, named after this process, after removing those of
 * processes that are gone (killed before they could remove theirs).
 */
function createSocketDir(): string {
  const pidInName = new RegExp(`^${SOCKET_DIR_PREFIX}(\\d+)-`);
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(pidInName.exec(name)?.[1]);
    if (!(pid > 0) || processAlive(pid)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // another user's: left to them
    }
  }
  return mkdtempSync(join(tmpdir(), `${SOCKET_DIR_PREFIX}${process.pid}-`));
}

/**
 * Starts the embedded engine in a worker thread of this process; resolves once it listens. The
 * engine's events (recovery, compaction, journal failures) go to `logger`, tagged `engine`.
 */
export function startEngineThread(
  options: EngineWorkerData & { logger?: Logger; stopWaitMs?: number },
): Promise<EngineThread> {
  const { logger, stopWaitMs = STOP_WAIT_MS, ...data } = options;
  // Windows listens on named pipes, not on socket files: TCP there
  const socketDir = process.platform === 'win32' ? undefined : createSocketDir();
  const removeSocketDir = () => {
    if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  };
  const worker = createWorker({ ...data, socketPath: socketDir && join(socketDir, 'engine.sock') });
  // settled by the worker's message, or by its end (nothing is left to wait for then)
  const decoded = new Promise<void>((resolve) => {
    worker.on('message', (message: WorkerMessage) => {
      if (message.decoded) resolve();
    });
    worker.once('exit', () => resolve());
  });
  worker.on('message', (message: WorkerMessage) => {
    if (message.log && logger) logEngineEvent(logger, message.log);
  });
  return new Promise((resolve, reject) => {
    const onStartError = (err: Error) => {
      removeSocketDir();
      reject(err);
    };
    worker.once('error', onStartError);
    const onStart = (message: WorkerMessage) => {
      if (message.log || message.decoded) return;
      worker.off('message', onStart);
      worker.off('error', onStartError);
      if (!message.uri) {
        removeSocketDir();
        void worker.terminate();
        const error = new Error(message.error ?? 'embedded engine failed to start');
        error.name = message.name ?? 'Error'; // e.g. DataDirLockedError: the data directory is in use
        reject(error);
        return;
      }
      resolve({
        uri: message.uri,
        socketUri: message.socketUri ?? message.uri,
        decoded,
        stop: () =>
          new Promise<void>((done) => {
            const stopped = () => {
              removeSocketDir();
              done();
            };
            const timer = setTimeout(() => {
              logger?.warn(
                `engine: did not stop within ${stopWaitMs / 1000} s; terminated (its journal is replayed at the next start)`,
              );
              void worker.terminate().then(() => {
                if (data.dataDir) releaseLockHeldBy(data.dataDir, process.pid);
                stopped();
              });
            }, stopWaitMs);
            worker.on('message', (reply: WorkerMessage) => {
              if (!reply.stopped) return;
              clearTimeout(timer);
              void worker.terminate().then(stopped);
            });
            worker.postMessage('stop');
          }),
      });
    };
    worker.on('message', onStart);
  });
}

function logEngineEvent(logger: Logger, event: EngineEvent): void {
  logger[event.level]({ engine: event.event, ...event.details }, `engine: ${event.message}`);
}
