import { compareValues } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';
import { keyComparator } from './index-keys.js';
import { IndexBuild } from './index-build.js';
import { KeyList, type KeyOf } from './key-list.js';
import { unbudgeted } from '../work.js';

export interface IndexSpec {
  v: number;
  key: Record<string, number>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  [option: string]: unknown;
}

/**
 * An ordered index over one or more fields: one entry per distinct key of a document (array
 * values make it multikey, one entry per element), sorted by key then `_id`, with ranks (see
 * KeyList), so equality, ranges, counts and ordered walks are all look-ups. A single-field
 * index stores each key as the bare value, a compound one as an array of values.
 */
export class SecondaryIndex {
  readonly fields: string[];
  readonly directions: number[];
  readonly compareKey: (key: unknown, probe: unknown) => number;
  private list: KeyList;
  /** positions of the fields on which some document reached an array (never cleared, as in MongoDB) */
  private readonly multikeyPositions = new Set<number>();
  /** set while the index is not built: the documents to build it from when it is first read */
  private pending: (() => Iterable<Doc>) | undefined;
  /**
   * a build of a pending index under way in slices (see buildSlice), and the writes made since
   * it took the documents, applied to its entries once it is done
   */
  private building: { build: IndexBuild; writes: IndexWrite[]; loader?: { step(count: number): boolean } } | undefined;
  /** the order a snapshot kept for the next build (index-order.ts), checked before it is used */
  private keptOrder: Int32Array | undefined;
  private orderWasKept = false;

  /** each field's path split on dots; null for a top-level field */
  private readonly paths: Array<string[] | null>;

  private current: IndexSpec;
  /** queries that used the index since it was created or loaded (`$indexStats`) */
  readonly accesses = { ops: 0, since: new Date() };

  get spec(): IndexSpec {
    return this.current;
  }

  /** New options (`expireAfterSeconds`, `hidden`) for the same key pattern. */
  respec(spec: IndexSpec): void {
    this.current = spec;
  }

  constructor(spec: IndexSpec) {
    this.current = spec;
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => (f.includes('.') ? f.split('.') : null));
    this.directions = this.fields.map((f) => (spec.key[f] < 0 ? -1 : 1));
    this.compareKey = keyComparator(this.directions);
    this.list = this.emptyList();
  }

  /**
   * An empty entry list. While no document reaches an array at a field (a multikey index), a
   * document has one key, its values at the fields: the entries keep no key (see KeyList's
   * `derive`), and `note` has them stored once the index becomes multikey.
   */
  private emptyList(): KeyList {
    return new KeyList(this.compareKey, (a, b) => compareValues(a, b), this.fields.length, this.singleKeyOf());
  }

  /**
   * The one key of a document that reaches no array at the fields, as `keysOf` finds it; a
   * compound key written into `into` when given (a comparison's scratch array, see KeyList).
   */
  private singleKeyOf(): KeyOf {
    const values = this.fields.map((field, f) => valueAt(field, this.paths[f]));
    if (values.length === 1) return values[0] as (doc: Doc) => unknown;
    if (this.paths.every((p) => p === null)) return topLevelKeyOf(this.fields);
    return (doc, into) => {
      const key = into ?? new Array<unknown>(values.length);
      for (let f = 0; f < values.length; f++) key[f] = (values[f] as (doc: Doc) => unknown)(doc);
      return key;
    };
  }

  /** The entries, sorted by key then `_id` (an index left to build is built now). */
  get entries(): KeyList {
    if (this.pending || this.building) this.build();
    return this.list;
  }

  /** Positions of the fields on which some document reached an array (an index left to build is built now). */
  get multikeyFields(): ReadonlySet<number> {
    if (this.pending || this.building) this.build();
    return this.multikeyPositions;
  }

  /**
   * Leaves the index to be built from `source` (the collection's documents as they are by then)
   * when it is first read: documents loaded at start-up cost no index work until a command needs
   * the index, and an index no command reads is never built.
   */
  defer(source: () => Iterable<Doc>): void {
    this.pending = source;
    this.building = undefined;
    this.list = this.emptyList();
    this.multikeyPositions.clear();
  }

  /** Leaves the index to build (see defer) unless it is already: a build under way starts again. */
  deferUnlessPending(source: () => Iterable<Doc>): void {
    if (!this.pending) this.defer(source);
  }

  /** Whether the index is left to build, or its build is under way (see defer, buildSlice). */
  get deferred(): boolean {
    return this.pending !== undefined || this.building !== undefined;
  }

  /** Builds an index left to build now, or finishes its build under way; nothing for one already built. */
  build(): void {
    if (this.pending || this.building) unbudgeted(() => this.buildSlice(Infinity));
  }

  /**
   * Builds an index left to build until `deadline` (a performance.now() value): a build begun
   * takes the documents as they are then, the writes made after are applied to its entries once
   * it is done, and a read that needs the index finishes it (see `entries`). True once built.
   */
  buildSlice(deadline: number): boolean {
    if (this.pending) {
      const source = this.pending;
      // the source may first apply its collection's pending loads, which leave this index to build again
      const docs = Array.from(source());
      this.pending = undefined;
      this.building = { build: this.startBuild(docs), writes: [] };
    }
    const building = this.building;
    if (!building) return true;
    const { build } = building;
    if (!build.run(deadline)) return false;
    building.loader ??= this.list.loader(build.keys, build.owners, build.order);
    const all = deadline === Infinity;
    while (!building.loader.step(all ? Infinity : ENTRIES_PER_LOAD_STEP))
      if (!all && performance.now() >= deadline) return false;
    this.building = undefined;
    this.orderWasKept = build.orderWasKept;
    for (const write of building.writes) this[write.op](write.doc, write.keys);
    return true;
  }

  private startBuild(docs: readonly Doc[]): IndexBuild {
    const kept = this.keptOrder;
    this.keptOrder = undefined;
    const keysOf = (doc: Doc) => {
      this.note(doc);
      return this.keysOf(doc);
    };
    return new IndexBuild(docs, keysOf, this.compareKey, compareValues, kept);
  }

  private finishBuild(build: IndexBuild): void {
    this.orderWasKept = build.orderWasKept;
    this.list.load(build.keys, build.owners, build.order);
  }

  /** Gives the next build the order a snapshot kept (see index-order.ts). */
  keepOrder(positions: Int32Array): void {
    this.keptOrder = positions;
  }

  /** Whether the last build found the order a snapshot kept still sorted (no sort). */
  get builtFromKeptOrder(): boolean {
    return this.orderWasKept;
  }

  /**
   * The documents of the entries in index order, for a snapshot to keep (see index-order.ts);
   * undefined while the index is left to build.
   */
  ownersInOrder(): Doc[] | undefined {
    return this.pending || this.building ? undefined : this.list.owners();
  }

  /**
   * Builds the entries of `docs` at once, by sorting (far cheaper than one insert each), from the
   * order a snapshot kept when there is one (see index-order.ts). With `enforceUnique`, answers the key of a duplicate instead for a
   * unique index (nothing is built). The keys and their documents are kept in two arrays and a
   * permutation of positions is sorted: an object per entry would be garbage the size of the
   * index, promoted before the sort ends.
   */
  fill(docs: Iterable<Doc>, enforceUnique: boolean): { values: unknown[] } | undefined {
    const build = this.startBuild(Array.from(docs));
    build.run(Infinity);
    if (enforceUnique && this.unique) {
      const { keys, owners, order } = build;
      for (let i = 1; i < order.length; i++) {
        const [a, b] = [order[i - 1], order[i]];
        if (this.compareKey(keys[a], keys[b]) === 0 && compareValues(owners[a]._id, owners[b]._id) !== 0) {
          return { values: this.fields.length === 1 ? [keys[b]] : (keys[b] as unknown[]) };
        }
      }
    }
    this.finishBuild(build);
    return undefined;
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  get sparse(): boolean {
    return this.spec.sparse === true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The distinct keys of a document, or none when a sparse index leaves it out. */
  keysOf(doc: Doc): unknown[] {
    if (this.paths.every((p) => p === null)) {
      // top-level fields holding scalars (the usual case): one key, no path walk
      let present = false;
      let scalars = true;
      // an exact-length array: a key is kept for as long as the document is indexed
      const values = this.fields.map((field) => {
        const v = doc[field];
        if (Array.isArray(v) || isPlainObject(v)) scalars = false;
        if (v !== undefined) present = true;
        return v === undefined ? null : v;
      });
      if (scalars) {
        if (!present && this.spec.sparse) return [];
        return [this.fields.length === 1 ? values[0] : values];
      }
    }
    const perField = this.fields.map((f) => pathValues(doc, f));
    if (this.spec.sparse && perField.every((vs) => vs.length === 1 && vs[0] === undefined)) return [];
    if (perField.filter((vs) => vs.length > 1).length > 1) {
      throw commandError('BadValue', `cannot index parallel arrays [${this.fields.join('] [')}]`, { code: 171 });
    }
    let combos: unknown[][] = [[]];
    for (const vs of perField) combos = combos.flatMap((c) => vs.map((v) => [...c, v === undefined ? null : v]));
    const keys: unknown[] = [];
    for (const values of combos) {
      const key = this.fields.length === 1 ? values[0] : values;
      if (!keys.some((k) => this.compareKey(k, key) === 0)) keys.push(key);
    }
    return keys;
  }

  /** The first other document holding one of these keys, for unique checks. */
  conflict(keys: unknown[], self: Doc | undefined): { values: unknown[] } | undefined {
    if (!this.unique) return undefined;
    for (const key of keys) {
      let clash = false;
      const from = this.entries.rank(key, -1);
      this.entries.scan(from, this.entries.rank(key, 1), 1, (_k, doc) => {
        clash = self === undefined || compareValues(doc._id, self._id) !== 0;
        return !clash;
      });
      if (clash) return { values: this.fields.length === 1 ? [key] : (key as unknown[]) };
    }
    return undefined;
  }

  // While the index is left to build, writes leave it alone: the build reads the documents as
  // they are by then (the collection changes its documents right after these calls). While its
  // build is under way, they are applied once it is done.

  add(doc: Doc, keys: unknown[]): void {
    if (this.pending) return;
    if (this.building) {
      this.building.writes.push({ op: 'add', doc, keys });
      return;
    }
    this.note(doc);
    for (const key of keys) this.list.insert(key, doc);
  }

  remove(doc: Doc, keys: unknown[]): void {
    if (this.pending) return;
    if (this.building) {
      this.building.writes.push({ op: 'remove', doc, keys });
      return;
    }
    for (const key of keys) this.list.remove(key, doc);
  }

  /** Points this document's entries (same keys) at its new version. */
  swap(doc: Doc, keys: unknown[]): void {
    if (this.pending) return;
    if (this.building) {
      this.building.writes.push({ op: 'swap', doc, keys });
      return;
    }
    for (const key of keys) this.list.swap(key, doc);
  }

  /** Whether two key lists of one document are the same. */
  sameKeys(a: unknown[], b: unknown[]): boolean {
    return a.length === b.length && a.every((k, i) => this.compareKey(k, b[i]) === 0);
  }

  get multikey(): boolean {
    return this.multikeyFields.size > 0;
  }

  /** Records the fields on which this document reaches an array (the index becomes multikey). */
  note(doc: Doc): void {
    for (let f = 0; f < this.fields.length; f++) {
      if (this.multikeyPositions.has(f)) continue;
      const path = this.paths[f];
      if (path ? reachesArray(doc, path) : Array.isArray(doc[this.fields[f]])) {
        // a document with several keys: they can no longer be derived from it
        this.list.storeKeys();
        this.multikeyPositions.add(f);
      }
    }
  }
}

/** Entries laid out in leaves between two looks at the clock, when a build is loaded in slices. */
const ENTRIES_PER_LOAD_STEP = 4096;

/** A write made while the index's build was under way, applied to its entries once it is done. */
interface IndexWrite {
  op: 'add' | 'remove' | 'swap';
  doc: Doc;
  keys: unknown[];
}

/**
 * A document's value at an indexed field, null when missing, for a document that reaches no array
 * there. A top-level field is read by a function of its own (a property load with a constant name
 * that V8 caches per document shape: as fast as reading a stored key), not by `doc[field]`. The
 * name comes from a client's index spec: JSON.stringify makes any name a string literal.
 */
function valueAt(field: string, path: string[] | null): (doc: Doc) => unknown {
  if (!path)
    return new Function('doc', `const v = doc[${JSON.stringify(field)}]; return v === undefined ? null : v;`) as (
      doc: Doc,
    ) => unknown;
  return (doc) => {
    let v: unknown = doc;
    for (const part of path) {
      if (!isPlainObject(v)) return null;
      v = v[part];
    }
    return v ?? null;
  };
}

/** A compound key of top-level fields, read by one function of its own (see valueAt). */
function topLevelKeyOf(fields: string[]): KeyOf {
  const reads = fields.map((field, f) => `v = doc[${JSON.stringify(field)}]; key[${f}] = v === undefined ? null : v;`);
  return new Function(
    'doc',
    'into',
    `const key = into ?? new Array(${fields.length}); let v; ${reads.join(' ')} return key;`,
  ) as KeyOf;
}

function reachesArray(doc: Doc, path: string[]): boolean {
  let v: unknown = doc;
  for (const part of path) {
    if (Array.isArray(v)) return true;
    if (!isPlainObject(v)) return false;
    v = v[part];
  }
  return Array.isArray(v);
}
