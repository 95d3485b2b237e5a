import { Long } from 'bson';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../protocol/wire.js';
import type { CommandHandler } from './context.js';
import { executorStats } from '../query/stats.js';

/** MongoDB 7.0 (wire version 21). */
export const SERVER_VERSION = '7.0.0';
const WIRE_VERSION = 21;

/**
 * `hello` / `isMaster`: a writable standalone. No `topologyVersion` (no streaming), no compression.
 * With transactions on, `embeddedTransactions: true` says so to a client that asks (the service's
 * Models.init): a `setName` would make drivers treat the engine as a replica set (discovery,
 * retryable writes), which it is not. `embeddedEngine: true` lets the service send its reads
 * without the driver's per-command machinery (src/database/wire-reads.ts).
 */
export const hello: CommandHandler = (cmd, ctx) => ({
  ...(cmd.helloOk ? { helloOk: true } : {}),
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  maxMessageSizeBytes: MAX_MESSAGE_SIZE,
  maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  connectionId: 1,
  minWireVersion: 0,
  maxWireVersion: WIRE_VERSION,
  readOnly: false,
  ...(ctx.server.transactions ? { embeddedTransactions: true } : {}),
  embeddedEngine: true,
  ok: 1,
});

export const ping: CommandHandler = () => ({ ok: 1 });

export const buildInfo: CommandHandler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'embedded',
  modules: [],
  allocator: 'system',
  javascriptEngine: 'none',
  sysInfo: 'deprecated',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  storageEngines: ['embedded'],
  ok: 1,
});

export const getParameter: CommandHandler = (cmd) => {
  const all = cmd.getParameter === '*';
  const out: Record<string, unknown> = {};
  if (all || cmd.featureCompatibilityVersion !== undefined) out.featureCompatibilityVersion = { version: '7.0' };
  if (all || cmd.cursorTimeoutMillis !== undefined) out.cursorTimeoutMillis = Long.fromNumber(600_000);
  return { ...out, ok: 1 };
};

export const serverStatus: CommandHandler = (_cmd, ctx) => {
  const uptimeMillis = Date.now() - ctx.server.startedAt;
  return {
    host: `${ctx.server.host}:${ctx.server.port}`,
    version: SERVER_VERSION,
    process: 'mongod',
    pid: Long.fromNumber(process.pid),
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis: Long.fromNumber(uptimeMillis),
    localTime: new Date(),
    connections: {
      current: ctx.server.connections.current,
      available: 1000,
      totalCreated: ctx.server.connections.totalCreated,
    },
    metrics: {
      cursor: { open: { total: Long.fromNumber(ctx.cursors.size) } },
      queryExecutor: {
        scanned: Long.fromNumber(executorStats.scanned),
        scannedObjects: Long.fromNumber(executorStats.scannedObjects),
      },
      ttl: {
        passes: Long.fromNumber(ctx.server.ttl.passes),
        deletedDocuments: Long.fromNumber(ctx.server.ttl.deletedDocuments),
      },
      ...journalMetrics(ctx),
    },
    ok: 1,
  };
};

/** `metrics.journal` of a persisted engine: appends, and fdatasyncs (fewer: one covers every append made while the previous one ran). */
function journalMetrics(ctx: Parameters<CommandHandler>[1]) {
  const stats = ctx.server.journal?.();
  return stats ? { journal: { appends: Long.fromNumber(stats.appends), syncs: Long.fromNumber(stats.syncs) } } : {};
}

export const endSessions: CommandHandler = () => ({ ok: 1 });
export const whatsmyuri: CommandHandler = () => ({ you: '127.0.0.1:0', ok: 1 });
export const hostInfo: CommandHandler = () => ({
  system: { currentTime: new Date(), hostname: 'localhost' },
  os: { type: process.platform },
  extra: {},
  ok: 1,
});
export const connectionStatus: CommandHandler = () => ({
  authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] },
  ok: 1,
});
export const getLog: CommandHandler = () => ({ totalLinesWritten: 0, log: [], ok: 1 });
export const getCmdLineOpts: CommandHandler = () => ({ argv: ['embedded'], parsed: {}, ok: 1 });
