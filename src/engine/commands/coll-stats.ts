import { BSON, Long } from 'bson';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import type { CommandContext } from './context.js';

/** Bytes counted per index entry: the engine keeps entries in memory, so index sizes are estimates. */
const BYTES_PER_INDEX_ENTRY = 32;

function scaleOf(raw: unknown): number {
  if (raw === undefined || raw === null) return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 1) throw commandError('BadValue', 'scale has to be >= 1');
  return Math.floor(n);
}

/**
 * `storageStats` as mongod reports them: `size` is the documents' BSON size (computed now, one
 * pass), `storageSize` the same (no compression, no free space), index sizes estimated per entry.
 */
export function storageStats(coll: Collection, scaleRaw?: unknown): Doc {
  const scale = scaleOf(scaleRaw);
  let size = 0;
  for (const doc of coll.all()) size += BSON.calculateObjectSize(doc);
  const indexSizes: Doc = {};
  let totalIndexSize = 0;
  for (const ix of coll.indexes) {
    const bytes = ix.entries.size * BYTES_PER_INDEX_ENTRY;
    indexSizes[ix.spec.name] = Math.floor(bytes / scale);
    totalIndexSize += bytes;
  }
  return {
    size: Math.floor(size / scale),
    count: coll.size,
    avgObjSize: coll.size ? Math.floor(size / coll.size) : 0,
    numOrphanDocs: 0,
    storageSize: Math.floor(size / scale),
    freeStorageSize: 0,
    capped: false,
    nindexes: coll.indexes.length,
    indexBuilds: [],
    totalIndexSize: Math.floor(totalIndexSize / scale),
    totalSize: Math.floor((size + totalIndexSize) / scale),
    indexSizes,
    scaleFactor: scale,
  };
}

function missing(ctx: CommandContext, name: string): CommandError {
  return commandError('NamespaceNotFound', `Collection [${ctx.db}.${name}] not found.`);
}

/** The `collStats` command: the storage statistics at the top level. */
export function collStatsReply(ctx: CommandContext, name: string, scale: unknown): Doc {
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) throw missing(ctx, name);
  return { ns: coll.ns, ...storageStats(coll, scale), ok: 1 };
}

const COLL_STATS_OPTIONS = new Set(['storageStats', 'count', 'latencyStats', 'queryExecStats']);

/**
 * The document a `$collStats` first stage produces: `storageStats` and `count` as asked;
 * `latencyStats` and `queryExecStats` (mongod's per-collection counters) are zero-valued.
 */
export function collStatsDocument(ctx: CommandContext, name: string, spec: unknown): Doc {
  if (!isPlainObject(spec))
    throw commandError('FailedToParse', '$collStats must take a nested object but found: ' + JSON.stringify(spec));
  for (const k of Object.keys(spec))
    if (!COLL_STATS_OPTIONS.has(k))
      throw new CommandError(40415, 'Location40415', `BSON field '$collStats.${k}' is an unknown field.`);
  const coll = ctx.catalog.get(ctx.db, name);
  const out: Doc = { ns: `${ctx.db}.${name}`, host: `${ctx.server.host}:${ctx.server.port}`, localTime: new Date() };
  if (spec.latencyStats !== undefined) {
    const zero = { latency: 0, ops: 0 };
    out.latencyStats = { reads: zero, writes: zero, commands: zero, transactions: zero };
  }
  if (spec.storageStats !== undefined) {
    if (!coll)
      throw commandError(
        'NamespaceNotFound',
        `Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`,
      );
    const options = isPlainObject(spec.storageStats) ? spec.storageStats : {};
    out.storageStats = storageStats(coll, options.scale);
  }
  if (spec.count !== undefined) {
    if (!coll)
      throw commandError(
        'NamespaceNotFound',
        `Unable to retrieve count in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`,
      );
    out.count = coll.size;
  }
  if (spec.queryExecStats !== undefined) out.queryExecStats = { collectionScans: { total: 0, nonTailable: 0 } };
  return out;
}

/** The documents a `$indexStats` first stage produces: one per index, with its use since creation. */
export function indexStatsDocuments(ctx: CommandContext, name: string, spec: unknown): Doc[] {
  if (!isPlainObject(spec) || Object.keys(spec).length > 0)
    throw new CommandError(28803, 'Location28803', 'The $indexStats stage specification must be an empty object');
  const coll = ctx.catalog.get(ctx.db, name);
  if (!coll) return [];
  return coll.indexes.map((ix) => ({
    name: ix.spec.name,
    key: { ...ix.spec.key },
    host: `${ctx.server.host}:${ctx.server.port}`,
    accesses: { ops: Long.fromNumber(ix.accesses.ops), since: ix.accesses.since },
    spec: ix.spec,
  }));
}

/** Stages that produce their documents from the collection's metadata: only valid first. */
export const METADATA_SOURCES: Record<string, (ctx: CommandContext, name: string, spec: unknown) => Doc[]> = {
  $collStats: (ctx, name, spec) => [collStatsDocument(ctx, name, spec)],
  $indexStats: indexStatsDocuments,
};
