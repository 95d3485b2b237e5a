import type { EngineLog } from './events.js';
import { EngineServer } from './server.js';
import type { CrashPoint } from './storage/journal.js';

export type { EngineEvent, EngineLog } from './events.js';
export { DataDamagedError } from './storage/recovery.js';
export { DataDirLockedError } from './storage/lock.js';
export { COMPACTION_STEPS, type CompactionStep, type CrashPoint } from './storage/journal.js';

/** Time between passes of the TTL monitor, as mongod's `ttlMonitorSleepSecs` default. */
export const DEFAULT_TTL_INTERVAL_MS = 60_000;

/** Budget of a command that sends no maxTimeMS of its own (see README.md, "Time budgets"). */
export const DEFAULT_MAX_TIME_MS = 60_000;

/** An open transaction is aborted this long after it started, as mongod's `transactionLifetimeLimitSeconds` default. */
export const DEFAULT_TRANSACTION_LIFETIME_MS = 60_000;

export interface EngineOptions {
  /** 0 or undefined: a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** also listen on this Unix domain socket path (see `Engine.socketUri`) */
  socketPath?: string;
  /** persist here (journal + snapshot, locked); undefined: in memory */
  dataDir?: string;
  /** receives recovery, compaction and journal events (default: dropped) */
  log?: EngineLog;
  /** at start-up, move damaged bytes of the data files aside (into the data directory) instead of refusing to start */
  repair?: boolean;
  /** ms a command without its own maxTimeMS may run (default DEFAULT_MAX_TIME_MS; 0: no limit) */
  defaultMaxTimeMS?: number;
  /** compact when the journal grows past this many bytes (default 32 MiB) */
  compactAtBytes?: number;
  /** ms between passes of the TTL monitor deleting expired documents (default 60 s; 0: no monitor) */
  ttlIntervalMs?: number;
  /** test hook: the process kills itself (SIGKILL) at this compaction step, or with a transaction's group half written */
  crashAt?: CrashPoint;
  /** multi-document transactions (default true; false: refused with code 20, as a standalone mongod) */
  transactions?: boolean;
  /** ms after which an open transaction is aborted (default DEFAULT_TRANSACTION_LIFETIME_MS) */
  transactionLifetimeMs?: number;
}

export interface Engine {
  uri: string;
  /** the URI of `socketPath`, when given: a client in the same machine skips TCP */
  socketUri?: string;
  port: number;
  /**
   * Settles once the documents a start on persisted data left encoded are decoded (at once when
   * there were none): reads of the large collections then answer without decoding them first.
   */
  decoded: Promise<void>;
  stop(): Promise<void>;
}

/** Starts the embedded MongoDB-compatible server (see README.md in this folder). */
export async function startEngine(opts: EngineOptions = {}): Promise<Engine> {
  const host = opts.host ?? '127.0.0.1';
  const server = new EngineServer({
    host,
    port: opts.port ?? 0,
    socketPath: opts.socketPath,
    dataDir: opts.dataDir,
    log: opts.log ?? (() => {}),
    repair: opts.repair === true,
    defaultMaxTimeMS: opts.defaultMaxTimeMS ?? DEFAULT_MAX_TIME_MS,
    compactAtBytes: opts.compactAtBytes,
    crashAt: opts.crashAt,
    ttlIntervalMs: opts.ttlIntervalMs ?? DEFAULT_TTL_INTERVAL_MS,
    transactions: opts.transactions !== false,
    transactionLifetimeMs: opts.transactionLifetimeMs ?? DEFAULT_TRANSACTION_LIFETIME_MS,
  });
  const port = await server.start();
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    ...(opts.socketPath ? { socketUri: `mongodb://${encodeURIComponent(opts.socketPath)}` } : {}),
    decoded: server.decoded,
    stop: () => (stopped ??= server.stop()),
  };
}
