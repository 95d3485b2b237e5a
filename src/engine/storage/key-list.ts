import type { Doc } from '../bson/types.js';

/**
 * Compares an entry's key with a probe: negative when the entry comes first. Entries with equal
 * keys are ordered by `_id` (see KeyList).
 */
export type KeyCompare = (entryKey: unknown, probe: unknown) => number;

/** Where a probe sits among entries whose key equals it: before all of them or after all of them. */
export type Tail = -1 | 1;

const LEAF_MAX = 512;
/** entries per leaf of a bulk-built index: room for some inserts before the first splits */
const LEAF_FILL = 448;

interface Leaf {
  /** the keys of the entries, `width` values each, one after the other; empty while keys are derived */
  keys: unknown[];
  docs: Doc[];
}

/**
 * The key of an entry computed from its document (see KeyList's `derive`); a compound key is
 * written into `into` when given, a scratch array for a comparison that does not keep it.
 */
export type KeyOf = (doc: Doc, into?: unknown[]) => unknown;

/**
 * The entries of an index, `(key, document)` pairs sorted by key and then by the document's
 * `_id`, with ranks: the position of any key is found in O(log n), so the number of entries in a
 * key range is two look-ups, never a walk. Leaves of at most 512 entries held in parallel arrays
 * (two pointers per entry; the key of a compound index as its values laid out in the leaf's key
 * array, not as an array of its own, which cost 72 bytes more per entry), and a Fenwick tree over
 * the leaf sizes for positions.
 *
 * With `derive`, keys are not stored at all: an entry's key is computed from its document when
 * compared (stored documents are never modified in place, so it is the key the entry was made
 * with). That is one pointer per entry instead of 1 + width, for the indexes whose keys are the
 * document's own top-level values; `storeKeys` switches to stored keys for good (a document
 * with an array value makes the index multikey, where one document has several keys).
 *
 * Written here rather than taken from npm: the B-tree packages (sorted-btree, js-sdsl) have no
 * rank/position queries, and functional-red-black-tree allocates nodes on every insert.
 */
export class KeyList {
  private leaves: Leaf[] = [];
  private fenwick: number[] = [0];
  private total = 0;

  /**
   * `width`: 1 when each key is a bare value (a single-field index), else the number of values
   * of each key (an array of that length). `derive`: computes every entry's key from its
   * document instead of storing it (see above).
   */
  /** where `compared` writes a derived compound key */
  private readonly scratch: unknown[];

  constructor(
    private readonly compareKey: KeyCompare,
    private readonly compareId: (a: unknown, b: unknown) => number,
    private readonly width = 1,
    private derive?: KeyOf,
  ) {
    this.scratch = new Array<unknown>(width);
  }

  /** Whether keys are computed from the documents (see `derive`). */
  get derived(): boolean {
    return this.derive !== undefined;
  }

  /** Stores every entry's key from now on (computed once from its document, as `derive` did). */
  storeKeys(): void {
    const derive = this.derive;
    if (!derive) return;
    this.derive = undefined;
    for (const leaf of this.leaves) {
      const keys: unknown[] = [];
      for (const doc of leaf.docs) keys.push(...this.stored(derive(doc)));
      leaf.keys = keys;
    }
  }

  get size(): number {
    return this.total;
  }

  /** Replaces every entry by those of `keys` and `docs` taken in the positions of `order` (already sorted). */
  load(keys: readonly unknown[], docs: readonly Doc[], order: readonly number[]): void {
    this.loader(keys, docs, order).step(Infinity);
  }

  /**
   * `load` in steps: `step(count)` lays out about `count` more entries in leaves, and answers true
   * once all are, when they replace the list's entries (the list is not to be used before).
   */
  loader(keys: readonly unknown[], docs: readonly Doc[], order: readonly number[]): { step(count: number): boolean } {
    const leaves: Leaf[] = [];
    const w = this.width;
    let i = 0;
    return {
      step: (count: number): boolean => {
        const to = Math.min(order.length, i + count);
        for (; i < to; i += LEAF_FILL) {
          const end = Math.min(order.length, i + LEAF_FILL);
          const leafKeys: unknown[] = [];
          const leafDocs: Doc[] = [];
          for (let k = i; k < end; k++) {
            const at = order[k] as number;
            leafDocs.push(docs[at] as Doc);
            if (this.derive) continue;
            if (w === 1) leafKeys.push(keys[at]);
            else for (let f = 0; f < w; f++) leafKeys.push((keys[at] as unknown[])[f]);
          }
          // copies of their exact length: arrays grown by push keep up to half again as much room
          leaves.push({ keys: leafKeys.slice(), docs: leafDocs.slice() });
        }
        if (i < order.length) return false;
        this.leaves = leaves;
        this.total = order.length;
        this.rebuild();
        return true;
      },
    };
  }

  /** The documents of the entries, in entry order. */
  owners(): Doc[] {
    const out: Doc[] = [];
    for (const leaf of this.leaves) for (const doc of leaf.docs) out.push(doc);
    return out;
  }

  /** The key of entry `i` of a leaf (a new array for a compound key). */
  private keyAt(leaf: Leaf, i: number): unknown {
    if (this.derive) return this.derive(leaf.docs[i]);
    const w = this.width;
    return w === 1 ? leaf.keys[i] : leaf.keys.slice(i * w, i * w + w);
  }

  /** The key of entry `i` of a leaf for a comparison that does not keep it (a derived compound key in a scratch array). */
  private compared(leaf: Leaf, i: number): unknown {
    if (this.derive) return this.derive(leaf.docs[i], this.scratch);
    const w = this.width;
    return w === 1 ? leaf.keys[i] : leaf.keys.slice(i * w, i * w + w);
  }

  /** A key as stored in a leaf's key array (nothing while keys are derived). */
  private stored(key: unknown): unknown[] {
    if (this.derive) return [];
    return this.width === 1 ? [key] : (key as unknown[]);
  }

  insert(key: unknown, doc: Doc): void {
    if (this.leaves.length === 0) {
      this.leaves.push({ keys: this.stored(key).slice(), docs: [doc] });
      this.total = 1;
      this.rebuild();
      return;
    }
    // entries usually arrive in key order (counter ids, timestamps): append without a search
    const lastLeaf = this.leaves[this.leaves.length - 1];
    const last = lastLeaf.docs.length - 1;
    const appending = this.compareEntry(this.compared(lastLeaf, last), lastLeaf.docs[last], key, doc) < 0;
    if (appending && lastLeaf.docs.length >= LEAF_MAX) {
      // a full last leaf stays full (appends never come back to it): the entry starts a new leaf
      this.leaves.push({ keys: this.stored(key).slice(), docs: [doc] });
      this.total++;
      this.rebuild();
      return;
    }
    const li = appending ? this.leaves.length - 1 : this.leafFor(key, doc);
    const leaf = this.leaves[li];
    const at = appending ? leaf.docs.length : this.offsetIn(leaf, key, doc);
    const w = this.width;
    if (!this.derive) leaf.keys.splice(at * w, 0, ...this.stored(key));
    leaf.docs.splice(at, 0, doc);
    this.total++;
    if (leaf.docs.length > LEAF_MAX) {
      // both halves copied: arrays grown one element at a time keep spare capacity otherwise
      const half = leaf.docs.length >>> 1;
      const right = { keys: leaf.keys.slice(half * w), docs: leaf.docs.slice(half) };
      this.leaves.splice(li, 1, { keys: leaf.keys.slice(0, half * w), docs: leaf.docs.slice(0, half) }, right);
      this.rebuild();
    } else this.bump(li, 1);
  }

  /** Removes the entry of `doc` (by `_id`) under `key`; false when there is none. */
  remove(key: unknown, doc: Doc): boolean {
    const found = this.find(key, doc);
    if (!found) return false;
    const [li, at] = found;
    const leaf = this.leaves[li];
    if (!this.derive) leaf.keys.splice(at * this.width, this.width);
    leaf.docs.splice(at, 1);
    this.total--;
    if (leaf.docs.length === 0) {
      this.leaves.splice(li, 1);
      this.rebuild();
    } else this.bump(li, -1);
    return true;
  }

  /** Points the entry of `doc`'s `_id` under `key` at a new version of the document. */
  swap(key: unknown, doc: Doc): boolean {
    const found = this.find(key, doc);
    if (!found) return false;
    this.leaves[found[0]].docs[found[1]] = doc;
    return true;
  }

  /**
   * The number of entries ordered before `probe`: entries whose key compares below it, plus, with
   * `tail` 1, those whose key equals it.
   */
  rank(probe: unknown, tail: Tail): number {
    const before = (key: unknown) => {
      const c = this.compareKey(key, probe);
      return c < 0 || (c === 0 && tail === 1);
    };
    let lo = 0;
    let hi = this.leaves.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const leaf = this.leaves[mid];
      if (before(this.compared(leaf, leaf.docs.length - 1))) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.leaves.length) return this.total;
    const leaf = this.leaves[lo];
    let a = 0;
    let b = leaf.docs.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (before(this.compared(leaf, mid))) a = mid + 1;
      else b = mid;
    }
    return this.prefix(lo) + a;
  }

  /**
   * Visits the entries at positions [from, to) in order (`direction` 1) or backwards (-1);
   * stops when `visit` returns false.
   */
  scan(from: number, to: number, direction: 1 | -1, visit: (key: unknown, doc: Doc) => boolean): void {
    if (from >= to) return;
    if (direction === 1) {
      let [li, at] = this.locate(from);
      for (let n = to - from; n > 0;) {
        const leaf = this.leaves[li];
        const end = Math.min(leaf.docs.length, at + n);
        for (let i = at; i < end; i++) if (!visit(this.keyAt(leaf, i), leaf.docs[i])) return;
        n -= end - at;
        li++;
        at = 0;
      }
    } else {
      let [li, at] = this.locate(to - 1);
      for (let n = to - from; n > 0;) {
        const leaf = this.leaves[li];
        const end = Math.max(-1, at - n);
        for (let i = at; i > end; i--) if (!visit(this.keyAt(leaf, i), leaf.docs[i])) return;
        n -= at - end;
        li--;
        if (li >= 0) at = this.leaves[li].docs.length - 1;
      }
    }
  }

  /** The leaf an entry belongs to: the first whose last entry is not before it. */
  private leafFor(key: unknown, doc: Doc): number {
    let lo = 0;
    let hi = this.leaves.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const leaf = this.leaves[mid];
      const last = leaf.docs.length - 1;
      if (this.compareEntry(this.compared(leaf, last), leaf.docs[last], key, doc) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first position in a leaf whose entry is not before (key, doc). */
  private offsetIn(leaf: Leaf, key: unknown, doc: Doc): number {
    let a = 0;
    let b = leaf.docs.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.compareEntry(this.compared(leaf, mid), leaf.docs[mid], key, doc) < 0) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  private find(key: unknown, doc: Doc): [number, number] | undefined {
    if (this.leaves.length === 0) return undefined;
    // entries usually arrive in key order (counter ids, timestamps): append without a search
    const lastLeaf = this.leaves[this.leaves.length - 1];
    const last = lastLeaf.docs.length - 1;
    const appending = this.compareEntry(this.compared(lastLeaf, last), lastLeaf.docs[last], key, doc) < 0;
    const li = appending ? this.leaves.length - 1 : this.leafFor(key, doc);
    const leaf = this.leaves[li];
    const at = appending ? leaf.docs.length : this.offsetIn(leaf, key, doc);
    if (at >= leaf.docs.length || this.compareEntry(this.compared(leaf, at), leaf.docs[at], key, doc) !== 0)
      return undefined;
    return [li, at];
  }

  private compareEntry(aKey: unknown, aDoc: Doc, bKey: unknown, bDoc: Doc): number {
    return this.compareKey(aKey, bKey) || this.compareId(aDoc._id, bDoc._id);
  }

  /** Leaf and offset of a global position. */
  private locate(position: number): [number, number] {
    // Fenwick descent: the last leaf whose prefix sum is <= position
    let index = 0;
    let rest = position;
    for (let step = highestPowerOfTwo(this.leaves.length); step > 0; step >>= 1) {
      const next = index + step;
      if (next <= this.leaves.length && this.fenwick[next] <= rest) {
        index = next;
        rest -= this.fenwick[next];
      }
    }
    return [index, rest];
  }

  /** Number of entries in the leaves before leaf `li`. */
  private prefix(li: number): number {
    let sum = 0;
    for (let i = li; i > 0; i -= i & -i) sum += this.fenwick[i];
    return sum;
  }

  private bump(li: number, delta: number): void {
    for (let i = li + 1; i <= this.leaves.length; i += i & -i) this.fenwick[i] += delta;
  }

  private rebuild(): void {
    const n = this.leaves.length;
    const tree = new Array<number>(n + 1).fill(0);
    for (let i = 1; i <= n; i++) {
      tree[i] += this.leaves[i - 1].docs.length;
      const parent = i + (i & -i);
      if (parent <= n) tree[parent] += tree[i];
    }
    this.fenwick = tree;
  }
}

function highestPowerOfTwo(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return n === 0 ? 0 : p;
}
