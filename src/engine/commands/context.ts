import type { Doc } from '../bson/types.js';
import type { EngineLog } from '../events.js';
import type { TtlStats } from './ttl.js';
import type { CursorStore } from '../cursors.js';
import { commandError } from '../errors.js';
import type { PipelineEnv } from '../query/pipeline.js';
import type { Catalog } from '../storage/catalog.js';
import type { Collection } from '../storage/collection.js';
import type { OverlayOf } from '../storage/overlay.js';
import type { CursorReply } from '../protocol/cursor-reply.js';
import type { Work } from '../work.js';

export interface ServerState {
  startedAt: number;
  host: string;
  port: number;
  connections: { current: number; totalCreated: number };
  /** where warnings about commands go (a document failing a `validationAction: 'warn'` validator) */
  log: EngineLog;
  /** TTL monitor passes and documents it deleted */
  ttl: TtlStats;
  /** whether multi-document transactions are accepted (transactions.ts) */
  transactions: boolean;
  /** set after a failed journal write: why writes are refused until the engine restarts */
  writesRefused?: string;
  /** journal appends and the fdatasyncs that made them durable (none in memory) */
  journal?: () => { appends: number; syncs: number };
}

export interface CommandContext {
  catalog: Catalog;
  cursors: CursorStore;
  server: ServerState;
  /** the `$db` of the command */
  db: string;
  /** what the command reads instead of other transactions' uncommitted writes (transactions.ts) */
  overlay: OverlayOf;
}

/** What a command answers: a reply document, or one already serialized (cursor batches). */
export type Reply = Doc | CursorReply;

/** A command: answers at once (writes and metadata), or as work the server runs in slices (reads; see work.ts). */
export type CommandHandler = (cmd: Doc, ctx: CommandContext) => Reply | Work<Reply>;

/** The collection name a command targets (the value of its first field). */
export function collectionName(cmd: Doc, name: string): string {
  const v = cmd[name];
  if (typeof v !== 'string' || v === '') {
    throw commandError('InvalidNamespace', `collection name has invalid type ${typeof v}`);
  }
  return v;
}

export function pipelineEnv(ctx: CommandContext, collation?: unknown): PipelineEnv {
  return {
    resolve: (name) => ctx.catalog.get(ctx.db, name),
    overlay: ctx.overlay,
    collation: collation ?? undefined,
    joinMemos: new Map(),
  };
}

export function optionalNumber(cmd: Doc, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'object' && '_bsontype' in v ? Number(String(v)) : Number.NaN;
  if (!Number.isFinite(n)) throw commandError('TypeMismatch', `Field '${field}' should be a number`);
  return n;
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    throw commandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${Array.isArray(v) ? 'array' : typeof v}', expected type 'object'`,
    );
  return v as Doc;
}

export type { Collection };

/** Fields drivers add to every command; never the command name. */
export const GENERIC_COMMAND_FIELDS = new Set([
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
  // a transaction's (seen to by transactions.ts before the command runs)
  'txnNumber',
  'autocommit',
  'startTransaction',
]);
