import type { Doc } from '../bson/types.js';
import { KeptOrderPlacement } from './index-order.js';

/**
 * The work of building an index's entries by sorting, as steps that each stop once a deadline
 * has passed: `run(deadline)` does what it can before `deadline` (a performance.now() value) and
 * answers whether the build is done, so a build of a large index runs in slices between commands
 * (see EngineServer.buildDeferredIndexes) or all at once (`run(Infinity)`).
 *
 * Phases: the keys of every document; the order a snapshot kept, placed (index-order.ts); a check
 * that this order is already sorted; if not, a sort. Run all at once, the sort is V8's (TimSort);
 * run in slices, it is a merge sort of short runs sorted by V8, merged a slice at a time: the
 * same order, since `compare` (key, then `_id`) is a total order of the entries.
 */
export class IndexBuild {
  readonly keys: unknown[] = [];
  readonly owners: Doc[] = [];
  /** with a kept order: the first entry of each document, then the number of entries */
  private readonly firstEntry: number[] = [];
  private next = 0;
  private phase: 'keys' | 'place' | 'check' | 'runs' | 'merge' | 'done' = 'keys';
  private placement: KeptOrderPlacement | undefined;
  /** the entries' positions in the order found so far (sorted once the build is done) */
  order: number[] = [];
  /** whether the kept order was still sorted (nothing to sort) */
  orderWasKept = false;
  private merge: MergeState | undefined;

  readonly compare = (a: number, b: number): number =>
    this.compareKey(this.keys[a], this.keys[b]) || this.compareId(this.owners[a]._id, this.owners[b]._id);

  constructor(
    private readonly docs: readonly Doc[],
    /** a document's keys, after noting what it makes of the index (multikey) */
    private readonly keysOf: (doc: Doc) => unknown[],
    private readonly compareKey: (a: unknown, b: unknown) => number,
    private readonly compareId: (a: unknown, b: unknown) => number,
    private readonly kept: Int32Array | undefined,
  ) {}

  get done(): boolean {
    return this.phase === 'done';
  }

  /** Builds until `deadline` (performance.now()), one step at least; true once done. */
  run(deadline: number): boolean {
    const all = deadline === Infinity;
    while (!this.done) {
      this.step(all);
      if (!all && !this.done && performance.now() >= deadline) return false;
    }
    return true;
  }

  /** One step: a few hundred documents or entries (everything left of the phase when `all`). */
  private step(all: boolean): void {
    switch (this.phase) {
      case 'keys':
        return this.collectKeys(all ? this.docs.length : Math.min(this.docs.length, this.next + KEYS_PER_STEP));
      case 'place':
        return this.place(all);
      case 'check':
        return this.check(all ? this.order.length : Math.min(this.order.length, this.next + ENTRIES_PER_STEP));
      case 'runs':
        if (all) {
          // nothing merged yet: V8's sort of the whole, as a build run at once
          this.order.sort(this.compare);
          this.phase = 'done';
          return;
        }
        return this.sortRun();
      case 'merge':
        return this.mergeStep(all);
    }
  }

  private collectKeys(to: number): void {
    const { docs, keys, owners, firstEntry, kept } = this;
    for (let d = this.next; d < to; d++) {
      const doc = docs[d] as Doc;
      if (kept) firstEntry.push(keys.length);
      for (const key of this.keysOf(doc)) {
        keys.push(key);
        owners.push(doc);
      }
    }
    this.next = to;
    if (to < docs.length) return;
    firstEntry.push(keys.length);
    this.next = 0;
    if (this.kept) {
      this.placement = new KeptOrderPlacement(this.kept, this.firstEntry, this.compare);
      this.phase = 'place';
      return;
    }
    this.order = new Array<number>(keys.length);
    for (let i = 0; i < this.order.length; i++) this.order[i] = i;
    this.phase = 'check';
  }

  private place(all: boolean): void {
    const placement = this.placement as KeptOrderPlacement;
    if (!placement.step(all ? Infinity : ENTRIES_PER_STEP)) return;
    this.order = placement.order;
    this.placement = undefined;
    this.phase = 'check';
  }

  private check(to: number): void {
    const { order, compare } = this;
    for (let i = Math.max(1, this.next); i < to; i++) {
      if (compare(order[i - 1] as number, order[i] as number) >= 0) {
        this.next = 0;
        this.phase = 'runs';
        return;
      }
    }
    this.next = to;
    if (to < order.length) return;
    this.orderWasKept = this.kept !== undefined;
    this.phase = 'done';
  }

  /** Sorts the next run of RUN entries in place (V8's sort of a short array). */
  private sortRun(): void {
    const { order } = this;
    const end = Math.min(order.length, this.next + RUN);
    const run = order.slice(this.next, end).sort(this.compare);
    for (let i = 0; i < run.length; i++) order[this.next + i] = run[i] as number;
    this.next = end;
    if (end < order.length) return;
    this.merge = { width: RUN, from: order, to: new Array<number>(order.length), lo: 0, i: 0, j: 0, k: 0 };
    this.startPair(this.merge);
    this.phase = order.length > RUN ? 'merge' : 'done';
  }

  private startPair(m: MergeState): void {
    m.i = m.lo;
    m.j = Math.min(m.lo + m.width, m.from.length);
    m.k = m.lo;
  }

  /** Merges up to ENTRIES_PER_STEP entries of the current pass (the rest of the sort when `all`). */
  private mergeStep(all: boolean): void {
    const m = this.merge as MergeState;
    const n = m.from.length;
    let left = all ? Infinity : ENTRIES_PER_STEP;
    while (left > 0) {
      const { from, to } = m;
      const mid = Math.min(m.lo + m.width, n);
      const hi = Math.min(m.lo + 2 * m.width, n);
      if (m.k === m.lo && (mid >= hi || this.compare(from[mid - 1] as number, from[mid] as number) < 0)) {
        // two runs already in order (or a lone last run): copied without comparing
        for (let x = m.lo; x < hi; x++) to[x] = from[x] as number;
        left -= (hi - m.lo) >> 4;
        m.k = hi;
      } else {
        const stop = Math.min(hi, m.k + left);
        left -= stop - m.k;
        while (m.k < stop) {
          if (m.i < mid && (m.j >= hi || this.compare(from[m.i] as number, from[m.j] as number) < 0))
            to[m.k++] = from[m.i++] as number;
          else to[m.k++] = from[m.j++] as number;
        }
        if (m.k < hi) return; // the pair goes on at the next step
      }
      m.lo = hi;
      if (m.lo >= n) {
        // the pass is over: the next one merges runs twice as long
        m.width *= 2;
        m.lo = 0;
        [m.from, m.to] = [m.to, m.from];
        if (m.width >= n) {
          this.order = m.from;
          this.merge = undefined;
          this.phase = 'done';
          return;
        }
      }
      this.startPair(m);
    }
  }
}

interface MergeState {
  /** the length of the runs merged by this pass */
  width: number;
  from: number[];
  to: number[];
  /** the pair being merged: it starts at `lo`; `i` and `j` walk its two runs, `k` the output */
  lo: number;
  i: number;
  j: number;
  k: number;
}

/** Documents whose keys one step collects: a step stays well under a millisecond. */
const KEYS_PER_STEP = 512;
/** Entries one step of the other phases goes through. */
const ENTRIES_PER_STEP = 4096;
/** Entries sorted by V8 at a time before merging (a step of 1-2 ms with a compound key). */
const RUN = 2048;
