import { Long } from 'bson';
import { randomBytes } from 'node:crypto';
import type { Doc } from './bson/types.js';
import { CommandError, commandError } from './errors.js';

export const DEFAULT_BATCH_SIZE = 101;
/** The server's default `cursorTimeoutMillis`. */
export const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Doc[];
  position: number;
  lastUsed: number;
}

export interface Batch {
  docs: Doc[];
  id: Long;
}

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
    if (singleBatch) return { docs: batchSize ? docs.slice(0, batchSize) : docs, id: Long.ZERO };
    const size = batchSize ?? DEFAULT_BATCH_SIZE;
    if (size === 0) return { docs: [], id: docs.length ? this.register(ns, docs, 0) : Long.ZERO };
    if (docs.length <= size) return { docs, id: Long.ZERO };
    return { docs: docs.slice(0, size), id: this.register(ns, docs, size) };
  }

  register(ns: string, docs: Doc[], position: number): Long {
    let id: Long;
    do {
      id = Long.fromBytesLE([...randomBytes(8)]).and(Long.MAX_VALUE);
    } while (id.isZero() || this.open.has(id.toString()));
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
    const docs = c.docs.slice(c.position, c.position + size);
    c.position += docs.length;
    c.lastUsed = Date.now();
    if (c.position >= c.docs.length) {
      this.open.delete(key);
      return { docs, id: Long.ZERO };
    }
    return { docs, id };
  }

  kill(id: Long): boolean {
    return this.open.delete(id.toString());
  }

  has(id: Long): boolean {
    return this.open.has(id.toString());
  }
}
