import type { Doc } from '../bson/types.js';

/*
 * An index's order kept in a snapshot, so that a start's index builds need n - 1 comparisons
 * instead of a sort's n log n: for each entry in index order, the position of its document in
 * the collection's natural order, as little-endian int32s. A build starts its sort from it (see
 * keptEntryOrder): the answer is always the sort's, whatever the journals replayed after the
 * snapshot changed.
 */

/** An order too large for one record (16 MiB) is not kept: such an index is sorted at start-up. */
const MAX_POSITIONS = 4_000_000;

/** The positions of `owners` (an index's documents in index order), or undefined when not kept. */
export function encodePositions(owners: readonly Doc[], positionOf: ReadonlyMap<Doc, number>): Buffer | undefined {
  if (owners.length > MAX_POSITIONS) return undefined;
  const bytes = Buffer.allocUnsafe(owners.length * 4);
  for (let i = 0; i < owners.length; i++) {
    const at = positionOf.get(owners[i]);
    if (at === undefined) return undefined;
    bytes.writeInt32LE(at, i * 4);
  }
  return bytes;
}

export function decodePositions(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const positions = new Int32Array(bytes.byteLength >> 2);
  for (let i = 0; i < positions.length; i++) positions[i] = view.getInt32(i * 4, true);
  return positions;
}

/**
 * The entries in the order a snapshot kept, as far as it still places them, then those it does not
 * place in natural order: where sorting starts. V8's sort (TimSort) finds the runs, so a kept
 * order that still holds costs n - 1 comparisons and one that journals replayed after the snapshot
 * changed in a few places little more (a deletion shifts the positions after it: a sort then).
 * `firstEntry[p]`: the first entry of the document at natural position p (its entries run to
 * `firstEntry[p + 1]`: one more item than documents). A document with several entries (multikey)
 * appears once per entry: its entries in their own order (`compare`), one per appearance.
 */
export function keptEntryOrder(
  positions: Int32Array,
  firstEntry: readonly number[],
  compare: (a: number, b: number) => number,
): number[] {
  const placement = new KeptOrderPlacement(positions, firstEntry, compare);
  placement.step(Infinity);
  return placement.order;
}

/** keptEntryOrder in steps (see IndexBuild): `step(n)` places up to n more positions. */
export class KeptOrderPlacement {
  readonly order: number[] = [];
  private next = 0;
  private readonly seen: Int32Array;
  private readonly placed: Uint8Array;
  /** a multikey document's entries in their own order, once met */
  private readonly own = new Map<number, number[]>();

  constructor(
    private readonly positions: Int32Array,
    private readonly firstEntry: readonly number[],
    private readonly compare: (a: number, b: number) => number,
  ) {
    const docs = firstEntry.length - 1;
    this.seen = new Int32Array(docs);
    this.placed = new Uint8Array(firstEntry[docs] ?? 0);
  }

  /** Places up to `count` more kept positions; true once the order is complete. */
  step(count: number): boolean {
    const { positions, firstEntry, seen, placed, own, order } = this;
    const docs = firstEntry.length - 1;
    const to = Math.min(positions.length, this.next + count);
    for (let i = this.next; i < to; i++) {
      const p = positions[i] as number;
      if (!(p >= 0 && p < docs)) continue;
      const first = firstEntry[p] as number;
      const entries = (firstEntry[p + 1] as number) - first;
      const nth = seen[p]++;
      if (nth >= entries) continue;
      let entry = first;
      if (entries > 1) {
        let sorted = own.get(p);
        if (!sorted) {
          sorted = Array.from({ length: entries }, (_, k) => first + k).sort(this.compare);
          own.set(p, sorted);
        }
        entry = sorted[nth] as number;
      }
      placed[entry] = 1;
      order.push(entry);
    }
    this.next = to;
    if (to < positions.length) return false;
    for (let entry = 0; entry < placed.length; entry++) if (placed[entry] === 0) order.push(entry);
    return true;
  }
}

/** Whether `order` is sorted (each entry before the next). */
export function inOrder(order: readonly number[], compare: (a: number, b: number) => number): boolean {
  for (let i = 1; i < order.length; i++) if (compare(order[i - 1], order[i]) >= 0) return false;
  return true;
}
