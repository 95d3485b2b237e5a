import { BSON, Long } from 'bson';
import { randomBytes } from 'node:crypto';
import type { Doc } from './bson/types.js';
import { boundedBsonSize } from './bson/bounded-size.js';
import { CommandError, commandError } from './errors.js';

/** 2^53: every cursor id has this bit set */
const SAFE_LIMIT = Long.fromNumber(2 ** 53);

export const DEFAULT_BATCH_SIZE = 101;
/** The server's default `cursorTimeoutMillis`. */
export const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Doc[];
  position: number;
  lastUsed: number;
}

/** A batch: its documents serialized (their sizes cut it), and the cursor id (0: exhausted). */
export interface Batch {
  docs: Uint8Array[];
  id: Long;
}

/** mongod's reply limit: a batch stops before the document that would take it past 16 MiB (the first always goes). */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** The largest result document (BSONObjMaxInternalSize: 16 MiB + 16 KiB); a larger one is BSONObjectTooLarge. */
export const MAX_RESULT_DOCUMENT_BYTES = 16 * 1024 * 1024 + 16 * 1024;

/** Open cursors over materialized results, with int64 ids and an idle reaper. */
export class CursorStore {
  private readonly open = new Map<string, OpenCursor>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs = CURSOR_TIMEOUT_MS) {}

  get size(): number {
    return this.open.size;
  }

  startReaper(intervalMs = 60_000): void {
    this.timer = setInterval(() => this.reap(Date.now()), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.open.clear();
  }

  /** Closes cursors idle for longer than the timeout. */
  reap(now: number): number {
    let n = 0;
    for (const [id, c] of this.open)
      if (now - c.lastUsed > this.timeoutMs) {
        this.open.delete(id);
        n++;
      }
    return n;
  }

  /** The first batch; the rest stays open under a new id (`singleBatch` returns one batch and closes). */
  first(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch = false): Batch {
    if (singleBatch) return { docs: takeBatch(docs, 0, batchSize || docs.length).bytes, id: Long.ZERO };
    const size = batchSize ?? DEFAULT_BATCH_SIZE;
    if (size === 0) return { docs: [], id: docs.length ? this.register(ns, docs, 0) : Long.ZERO };
    const batch = takeBatch(docs, 0, size);
    if (batch.next >= docs.length) return { docs: batch.bytes, id: Long.ZERO };
    return { docs: batch.bytes, id: this.register(ns, docs, batch.next) };
  }

  register(ns: string, docs: Doc[], position: number): Long {
    let id: Long;
    do {
      // a positive 63-bit id at or above 2^53, like mongod's: a driver that promotes int64 values
      // which fit a double (promoteLongs) would otherwise hand some ids back as numbers
      id = Long.fromBytesLE([...randomBytes(8)])
        .and(Long.MAX_VALUE)
        .or(SAFE_LIMIT);
    } while (this.open.has(id.toString()));
    this.open.set(id.toString(), { ns, docs, position, lastUsed: Date.now() });
    return id;
  }

  next(id: Long, ns: string, batchSize: number | undefined): Batch {
    const key = id.toString();
    const c = this.open.get(key);
    if (!c) throw commandError('CursorNotFound', `cursor id ${key} not found`);
    if (c.ns !== ns) {
      throw new CommandError(
        13,
        'Unauthorized',
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${c.ns}`,
      );
    }
    const size = batchSize && batchSize > 0 ? batchSize : c.docs.length;
    let batch: { bytes: Uint8Array[]; next: number };
    try {
      batch = takeBatch(c.docs, c.position, size);
    } catch (err) {
      this.open.delete(key);
      throw err;
    }
    c.position = batch.next;
    c.lastUsed = Date.now();
    if (c.position >= c.docs.length) {
      this.open.delete(key);
      return { docs: batch.bytes, id: Long.ZERO };
    }
    return { docs: batch.bytes, id };
  }

  kill(id: Long): boolean {
    return this.open.delete(id.toString());
  }

  has(id: Long): boolean {
    return this.open.has(id.toString());
  }
}

/** Up to `max` documents from `from`, serialized, as long as they fit in MAX_BATCH_BYTES (the first always does). */
function takeBatch(docs: Doc[], from: number, max: number): { bytes: Uint8Array[]; next: number } {
  const bytes: Uint8Array[] = [];
  let total = 0;
  let i = from;
  while (i < docs.length && bytes.length < max) {
    const doc = serializeResult(docs[i] as Doc);
    if (bytes.length > 0 && total + doc.length > MAX_BATCH_BYTES) break;
    bytes.push(doc);
    total += doc.length;
    i++;
  }
  return { bytes, next: i };
}

function serializeResult(doc: Doc): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    bytes = BSON.serialize(doc);
  } catch {
    bytes = undefined; // larger than the serializer's buffer
  }
  if (bytes && bytes.length <= MAX_RESULT_DOCUMENT_BYTES) return bytes;
  const size = boundedBsonSize(doc, MAX_RESULT_DOCUMENT_BYTES);
  const [firstKey] = Object.keys(doc);
  const first = firstKey === undefined ? '' : ` First element: ${firstKey}: ${describe(doc[firstKey])}`;
  throw commandError(
    'BSONObjectTooLarge',
    `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${MAX_RESULT_DOCUMENT_BYTES}(16MB)${first}`,
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? '[ ... ]' : '{ ... }';
  return String(value);
}
