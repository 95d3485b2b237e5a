import type { Doc } from '../bson/types.js';

/*
 * An index's order kept in a snapshot, so that a start loads each index instead of sorting it:
 * for each entry in index order, the position of its document in the collection's natural order,
 * as little-endian int32s.
 * Loading takes it only if it is a permutation of the entries as loaded with each entry before the
 * next (n - 1 comparisons instead of a sort's n log n): then it is the sorted order itself,
 * whatever the journals replayed after the snapshot changed. Otherwise the index is sorted.
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
 * The sorted order of the entries from kept positions, or undefined when they do not give it.
 * `firstEntry[p]`: the first entry of the document at natural position p (its entries run to
 * `firstEntry[p + 1]`: one more item than documents); `compare`: the index's order of two entries.
 * A document with several entries (multikey) appears once per entry: its entries in their own
 * order, one per appearance.
 */
export function orderFromPositions(
  positions: Int32Array,
  firstEntry: readonly number[],
  compare: (a: number, b: number) => number,
): number[] | undefined {
  const docs = firstEntry.length - 1;
  const entries = firstEntry[docs] ?? 0;
  if (positions.length !== entries) return undefined;
  const seen = new Int32Array(docs);
  const own = new Map<number, number[]>();
  const order = new Array<number>(entries);
  for (let i = 0; i < entries; i++) {
    const p = positions[i];
    if (!(p >= 0 && p < docs)) return undefined;
    const first = firstEntry[p];
    const count = firstEntry[p + 1] - first;
    const nth = seen[p]++;
    if (nth >= count) return undefined;
    let entry = first;
    if (count > 1) {
      let sorted = own.get(p);
      if (!sorted) {
        sorted = Array.from({ length: count }, (_, k) => first + k).sort(compare);
        own.set(p, sorted);
      }
      entry = sorted[nth];
    }
    // as many appearances as entries for every document (none has more, and they add up): a permutation
    order[i] = entry;
    if (i > 0 && compare(order[i - 1], entry) >= 0) return undefined;
  }
  return order;
}
