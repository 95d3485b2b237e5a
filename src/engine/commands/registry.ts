import type { Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import * as collections from './collections.js';
import type { CommandContext, CommandHandler } from './context.js';
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
  aggregate: read.aggregate,
};

/** Fields drivers add to every command; never the command name. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  '$readPreference',
  'readConcern',
  'writeConcern',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'comment',
  'maxTimeMS',
  '$audit',
  '$client',
]);

const TRANSACTION_FIELDS = ['txnNumber', 'startTransaction', 'autocommit'];
const TRANSACTION_COMMANDS = new Set(['commitTransaction', 'abortTransaction']);

/** Runs one command document and returns its reply; never throws. */
export function dispatch(cmd: Doc, ctx: Omit<CommandContext, 'db'>): Doc {
  try {
    const name = Object.keys(cmd).find((k) => !GENERIC_FIELDS.has(k));
    if (!name) throw commandError('CommandNotFound', "no such command: ''");
    const db = typeof cmd.$db === 'string' ? cmd.$db : 'admin';
    // A standalone mongod rejects transactions (and retryable-write transaction numbers).
    if (TRANSACTION_FIELDS.some((f) => cmd[f] !== undefined) || TRANSACTION_COMMANDS.has(name)) {
      throw commandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
    }
    const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!handler) throw commandError('CommandNotFound', `no such command: '${name}'`);
    return handler(cmd, { ...ctx, db });
  } catch (err) {
    const e = err instanceof CommandError ? err : toCommandError(err);
    return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
  }
}
