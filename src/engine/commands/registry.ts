import type { Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import * as collections from './collections.js';
import * as explain from './explain.js';
import { GENERIC_COMMAND_FIELDS, type CommandContext, type CommandHandler, type Reply } from './context.js';
import { isWork, type Work } from '../work.js';
import * as handshake from './handshake.js';
import * as indexes from './indexes.js';
import * as read from './read.js';
import * as write from './write.js';

/** Command name → handler. Names are matched case-sensitively except the legacy spellings listed. */
const COMMANDS: Record<string, CommandHandler> = {
  hello: handshake.hello,
  isMaster: handshake.hello,
  ismaster: handshake.hello,
  ping: handshake.ping,
  buildInfo: handshake.buildInfo,
  buildinfo: handshake.buildInfo,
  getParameter: handshake.getParameter,
  serverStatus: handshake.serverStatus,
  endSessions: handshake.endSessions,
  whatsmyuri: handshake.whatsmyuri,
  hostInfo: handshake.hostInfo,
  connectionStatus: handshake.connectionStatus,
  getLog: handshake.getLog,
  getCmdLineOpts: handshake.getCmdLineOpts,
  create: collections.create,
  drop: collections.drop,
  dropDatabase: collections.dropDatabase,
  listDatabases: collections.listDatabases,
  listCollections: collections.listCollections,
  dbStats: collections.dbStats,
  collStats: collections.collStats,
  collMod: collections.collMod,
  renameCollection: collections.renameCollection,
  createIndexes: indexes.createIndexes,
  listIndexes: indexes.listIndexes,
  dropIndexes: indexes.dropIndexes,
  deleteIndexes: indexes.dropIndexes,
  insert: write.insert,
  update: write.update,
  delete: write.deleteCommand,
  findAndModify: write.findAndModify,
  findandmodify: write.findAndModify,
  find: read.find,
  getMore: read.getMore,
  killCursors: read.killCursors,
  count: read.count,
  distinct: read.distinct,
  aggregate: explain.aggregateOrExplain,
  explain: explain.explain,
};

/** Commands that change data: refused after a failed journal write (see server.ts). */
const WRITE_COMMANDS = new Set([
  'create',
  'collMod',
  'renameCollection',
  'drop',
  'dropDatabase',
  'createIndexes',
  'dropIndexes',
  'deleteIndexes',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
]);

/**
 * Runs one command document: its reply, or for reads work that ends with its reply (see work.ts).
 * Never throws: a failure is an error reply. Transaction fields were seen to before (transactions.ts).
 */
export function dispatch(cmd: Doc, ctx: Omit<CommandContext, 'db'>): Reply | Work<Reply> {
  try {
    const name = Object.keys(cmd).find((k) => !GENERIC_COMMAND_FIELDS.has(k));
    if (!name) throw commandError('CommandNotFound', "no such command: ''");
    const db = typeof cmd.$db === 'string' ? cmd.$db : 'admin';
    const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!handler) throw commandError('CommandNotFound', `no such command: '${name}'`);
    maxTimeMSOf(cmd);
    if (ctx.server.writesRefused !== undefined && WRITE_COMMANDS.has(name)) {
      throw commandError('UserWritesBlocked', ctx.server.writesRefused);
    }
    const reply = handler(cmd, { ...ctx, db });
    return isWork(reply) ? answering(reply) : reply;
  } catch (err) {
    return errorReply(err);
  }
}

function* answering(work: Work<Reply>): Work<Reply> {
  try {
    return yield* work;
  } catch (err) {
    return errorReply(err);
  }
}

/** A failure as mongod answers it (with the error's extra fields: `keyValue`, `errorLabels`...). */
export function errorReply(err: unknown): Doc {
  const e = err instanceof CommandError ? err : toCommandError(err);
  return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
}

const MAX_TIME_MS = 2_147_483_647;

/** A command's `maxTimeMS`, checked as mongod checks it; undefined when absent or 0 (no limit of its own). */
export function maxTimeMSOf(cmd: Doc): number | undefined {
  const raw = cmd.maxTimeMS;
  if (raw === undefined || raw === null) return undefined;
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'object' && '_bsontype' in raw ? Number(String(raw)) : Number.NaN;
  if (Number.isNaN(n)) throw commandError('BadValue', 'maxTimeMS must be a number');
  if (!Number.isInteger(n)) throw commandError('BadValue', 'maxTimeMS has non-integral value');
  if (n < 0 || n > MAX_TIME_MS)
    throw commandError('BadValue', `${n} value for maxTimeMS is out of range [0, ${MAX_TIME_MS}]`);
  return n === 0 ? undefined : n;
}
