import type { Doc } from '../bson/types.js';
import type { Collection } from './collection.js';

/*
 * Read committed (see transactions.ts): an open transaction's writes are applied in place, so the
 * stored versions of the documents it wrote are uncommitted. A command of another session reads a
 * collection through an overlay taken at the moment it reaches the documents: the committed
 * version of each such document instead of the stored one (nothing for one the transaction
 * inserted, the old one for one it deleted). Every other stored document is committed.
 */

/** What one read of a collection sees instead of some of its stored documents. */
export interface Overlay {
  /** stored documents that are other transactions' uncommitted versions → their committed version (undefined: none, an insert) */
  readonly replaced: ReadonlyMap<Doc, Doc | undefined>;
  /** committed versions of documents those transactions deleted (no longer stored) */
  readonly deleted: readonly Doc[];
}

/**
 * The overlay one command reads a collection through, taken now: the documents change between
 * the time slices of a read, so it is taken in the same synchronous step as the documents it
 * applies to. Undefined: nothing to hide (no other transaction wrote to the collection).
 */
export type OverlayOf = (coll: Collection) => Overlay | undefined;

/** The committed version of every document the overlay covers that exists in the committed state. */
export function committedVersions(overlay: Overlay): Doc[] {
  const out: Doc[] = [];
  for (const committed of overlay.replaced.values()) if (committed) out.push(committed);
  for (const d of overlay.deleted) out.push(d);
  return out;
}

/**
 * Candidates read from storage (an index's range, a scan), as the read sees them: uncommitted
 * versions replaced by their committed ones, and the committed version of every other document
 * the overlay covers added, since its stored version may lie outside the range where the committed
 * one does not. A superset of what matches: the caller still applies its filter (and its order).
 */
export function seenCandidates(pool: readonly Doc[], overlay: Overlay): Doc[] {
  const out: Doc[] = [];
  const placed = new Set<Doc>();
  for (const d of pool) {
    if (!overlay.replaced.has(d)) {
      out.push(d);
      continue;
    }
    const committed = overlay.replaced.get(d);
    if (committed && !placed.has(committed)) {
      out.push(committed);
      placed.add(committed);
    }
  }
  for (const committed of overlay.replaced.values()) if (committed && !placed.has(committed)) out.push(committed);
  for (const d of overlay.deleted) out.push(d);
  return out;
}

/** Every document of the collection as the read sees it, in natural order. */
export function seenDocuments(coll: Collection, overlay: Overlay | undefined): Doc[] {
  if (!overlay) return [...coll.all()];
  const out: Doc[] = [];
  for (const d of coll.all()) {
    if (!overlay.replaced.has(d)) out.push(d);
    else {
      const committed = overlay.replaced.get(d);
      if (committed) out.push(committed);
    }
  }
  if (overlay.deleted.length === 0) return out;
  for (const d of overlay.deleted) out.push(d);
  return coll.inNaturalOrder(out);
}

/** The number of documents the read sees. */
export function seenCount(coll: Collection, overlay: Overlay | undefined): number {
  if (!overlay) return coll.size;
  let n = coll.size - overlay.replaced.size + overlay.deleted.length;
  for (const committed of overlay.replaced.values()) if (committed) n++;
  return n;
}

/**
 * How a count of stored documents passing `test` changes as the read sees them: minus the
 * uncommitted versions that pass, plus the committed versions that pass.
 */
export function countAdjustment(overlay: Overlay | undefined, test: (d: Doc) => boolean): number {
  if (!overlay) return 0;
  let n = 0;
  for (const [stored, committed] of overlay.replaced) {
    if (test(stored)) n--;
    if (committed && test(committed)) n++;
  }
  for (const d of overlay.deleted) if (test(d)) n++;
  return n;
}
