import { UUID } from 'bson';
import { compareStrings, compareValues, valueKey } from '../bson/compare.js';
import { bsonTypeOf, type Doc } from '../bson/types.js';
import { commandError, CommandError } from '../errors.js';
import { formatKeyValue } from './key-format.js';
import { SecondaryIndex, type IndexSpec } from './secondary-index.js';
import { LinkOrderIndex } from './link-order-index.js';
import { TrigramIndex } from './trigram-index.js';
import { unbudgeted } from '../work.js';

export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** How long one step of a start's pending loads may run before a command that arrived is served. */
const SETTLE_STEP_MS = 4;

/** E11000 with the fields drivers read: `code`, `errmsg`, `keyPattern`, `keyValue`. */
export class DuplicateKeyError extends CommandError {
  constructor(ns: string, index: SecondaryIndex, values: unknown[]) {
    const keyPattern = { ...index.spec.key };
    const keyValue: Doc = {};
    index.fields.forEach((f, i) => {
      keyValue[f] = values[i] ?? null;
    });
    super(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${ns} index: ${index.spec.name} dup key: ${formatKeyValue(keyValue)}`,
      { keyPattern, keyValue },
    );
  }
}

/** One collection: documents by `_id` key in natural (insertion) order, and its ordered indexes. */
export class Collection {
  readonly uuid = new UUID();
  private readonly stored = new Map<string, Doc>();
  /**
   * Loads and removals of a start-up still to apply, in order (see loadLater): applied, all at
   * once, by the first use of the documents, or a few at a time by settleStep.
   */
  private readonly pending: Array<() => void> = [];
  private settling = false;
  /**
   * natural-order positions, built when needed while ids are not in ascending order (see
   * inNaturalOrder), then kept by inserts and removals: ascending, not necessarily contiguous
   */
  private positions: Map<string, number> | undefined;
  /** the position the next inserted document takes */
  private nextPosition = 0;
  /** the `_id` of the last document inserted while natural order is ascending `_id` order */
  private lastId: unknown = undefined;
  private idOrdered = true;
  readonly indexes: SecondaryIndex[] = [new SecondaryIndex(ID_INDEX_SPEC)];
  /** substring candidates per field, built on the first unanchored regex on an indexed field */
  private readonly trigrams = new Map<string, TrigramIndex>();
  /** relations in their links' order, by `field` and order path, built on the first read that walks one */
  private readonly linkOrders = new Map<string, LinkOrderIndex>();

  constructor(
    private dbName: string,
    private collName: string,
    /** the options it was created with (`validator`...), as `collMod` left them */
    public options: Doc = {},
  ) {}

  get db(): string {
    return this.dbName;
  }
  get name(): string {
    return this.collName;
  }

  /** Gives the collection another namespace (renameCollection; the catalog keeps its maps in step). */
  moveTo(db: string, name: string): void {
    this.dbName = db;
    this.collName = name;
  }

  /** The documents, with every pending load applied first. */
  private get docs(): Map<string, Doc> {
    if (this.pending.length > 0 && !this.settling) this.settle();
    return this.stored;
  }

  /** Whether loads of a start-up are still to apply (see loadLater). */
  get loading(): boolean {
    return this.pending.length > 0;
  }

  /**
   * Documents of a start-up, decoded when first needed: by the first command that uses the
   * collection, or by settleStep in the engine's spare time. Decoding the snapshot is most of a
   * start's work; left until after the engine listens, a client's own start-up runs meanwhile.
   */
  loadLater(decode: () => Doc[]): void {
    this.pending.push(() => this.load(decode()));
    // reading an index (or the substring lists) applies the loads first: their sources are the documents
    this.positions = undefined;
    this.trigrams.clear();
    this.linkOrders.clear();
    for (const ix of this.indexes) ix.deferUnlessPending(() => this.docs.values());
  }

  /** A removal replayed from a journal after loads still to apply (see loadLater). */
  removeLater(id: unknown): void {
    this.pending.push(() => this.remove(valueKey(id)));
  }

  /**
   * Applies the next pending loads or removals, for up to SETTLE_STEP_MS on `clock` (at least one:
   * a snapshot's batch, a journal's lone write, several of which make one step); true while more
   * remain.
   */
  settleStep(clock: () => number = () => performance.now()): boolean {
    const started = clock();
    for (let next = this.pending[0]; next; next = this.pending[0]) {
      this.applyPending(next);
      if (clock() - started >= SETTLE_STEP_MS) break;
    }
    return this.pending.length > 0;
  }

  /** Applies every pending step; owed by the engine's start, not charged to the command that needs it. */
  private settle(): void {
    unbudgeted(() => {
      for (let next = this.pending[0]; next; next = this.pending[0]) this.applyPending(next);
    });
  }

  /**
   * A pending step is dropped only once applied: one that fails (bytes that passed their checksum
   * but do not decode) fails every use of the collection rather than leaving documents out.
   */
  private applyPending(step: () => void): void {
    this.settling = true;
    try {
      step();
      this.pending.shift();
    } finally {
      this.settling = false;
    }
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }
  get size(): number {
    return this.docs.size;
  }

  all(): IterableIterator<Doc> {
    return this.docs.values();
  }
  get(id: string): Doc | undefined {
    return this.docs.get(id);
  }
  getById(idValue: unknown): Doc | undefined {
    return this.docs.get(valueKey(idValue));
  }

  /** Stored documents put in natural order (ascending `_id` while ids were inserted ascending). */
  inNaturalOrder(docs: Doc[]): Doc[] {
    if (this.idOrdered) {
      let sorted = true;
      for (let i = 1; i < docs.length && sorted; i++) sorted = compareValues(docs[i - 1]._id, docs[i]._id) < 0;
      return sorted ? docs : [...docs].sort((a, b) => compareValues(a._id, b._id));
    }
    if (!this.positions) {
      this.positions = new Map();
      let i = 0;
      for (const id of this.docs.keys()) this.positions.set(id, i++);
      this.nextPosition = i;
    }
    const positions = this.positions;
    const last = this.nextPosition;
    // a document no longer stored (a committed version an overlay shows) goes last, where an abort would put it back
    const keyed = docs.map((d) => [positions.get(valueKey(d._id)) ?? last, d] as const);
    keyed.sort((a, b) => a[0] - b[0]);
    return keyed.map((e) => e[1]);
  }

  /** The `_id` index (ascending `_id` order). */
  get idIndex(): SecondaryIndex {
    return this.indexes[0];
  }

  /** The trigram index of a field (built over the current documents the first time). */
  trigramIndex(field: string): TrigramIndex {
    if (this.pending.length > 0 && !this.settling) this.settle(); // the loads would drop the lists made now
    let index = this.trigrams.get(field);
    if (!index) {
      index = new TrigramIndex(
        field,
        () => this.docs.values(),
        () => this.docs.size,
      );
      this.trigrams.set(field, index);
    }
    return index;
  }

  /** The entries of `field` in the order of the positions kept at `orderPath` (built over the current documents the first time). */
  linkOrderIndex(field: string, orderPath: string): LinkOrderIndex {
    if (this.pending.length > 0 && !this.settling) this.settle(); // the loads would drop the entries made now
    const name = `${field}\u0000${orderPath}`;
    let index = this.linkOrders.get(name);
    if (!index) {
      index = unbudgeted(() => new LinkOrderIndex(field, orderPath, this.docs.values()));
      this.linkOrders.set(name, index);
    }
    return index;
  }

  index(name: string): SecondaryIndex | undefined {
    return this.indexes.find((i) => i.spec.name === name);
  }

  insert(doc: Doc): void {
    const id = checkId(doc._id);
    if (this.docs.has(id)) throw new DuplicateKeyError(this.ns, this.indexes[0], [doc._id]);
    const keys = this.indexes.map((ix) => ix.keysOf(doc));
    this.indexes.forEach((ix, i) => {
      const c = ix.conflict(keys[i], undefined);
      if (c) throw new DuplicateKeyError(this.ns, ix, c.values);
    });
    this.indexes.forEach((ix, i) => ix.add(doc, keys[i]));
    if (this.docs.size === 0) this.idOrdered = true;
    else if (this.idOrdered && compareValues(doc._id, this.lastId, compareStrings) <= 0) this.idOrdered = false;
    this.lastId = doc._id;
    this.docs.set(id, doc);
    this.positions?.set(id, this.nextPosition++);
    for (const t of this.trigrams.values()) t.add(doc);
    for (const l of this.linkOrders.values()) l.add(doc);
  }

  /**
   * Puts documents known to be valid (a snapshot's or a journal's: accepted writes) in bulk: a new
   * `_id` is added in natural order, a known one replaced in place; no unique checks, and each
   * index is rebuilt when first read (start-up builds no index).
   */
  load(docs: Doc[]): void {
    if (this.pending.length > 0 && !this.settling) {
      this.pending.push(() => this.load(docs));
      return;
    }
    const stored = this.stored;
    for (const doc of docs) {
      const id = checkId(doc._id);
      if (!stored.has(id)) {
        if (stored.size === 0) this.idOrdered = true;
        else if (this.idOrdered && compareValues(doc._id, this.lastId, compareStrings) <= 0) this.idOrdered = false;
        this.lastId = doc._id;
      }
      stored.set(id, doc);
    }
    this.positions = undefined;
    this.trigrams.clear();
    this.linkOrders.clear();
    // an index already left to build (each load of a start after the first) stays so as it is
    for (const ix of this.indexes) ix.deferUnlessPending(() => this.docs.values());
  }

  /** Replaces a stored document by a new version with the same `_id`. */
  replace(id: string, doc: Doc): void {
    const old = this.docs.get(id);
    if (!old) return;
    const oldKeys = this.indexes.map((ix) => ix.keysOf(old));
    const newKeys = this.indexes.map((ix) => ix.keysOf(doc));
    this.indexes.forEach((ix, i) => {
      const c = ix.conflict(newKeys[i], doc);
      if (c) throw new DuplicateKeyError(this.ns, ix, c.values);
    });
    this.indexes.forEach((ix, i) => {
      if (ix.sameKeys(oldKeys[i], newKeys[i])) {
        ix.swap(doc, newKeys[i]);
        return;
      }
      ix.remove(old, oldKeys[i]);
      ix.add(doc, newKeys[i]);
    });
    this.docs.set(id, doc);
    for (const t of this.trigrams.values()) {
      t.retire(old);
      t.add(doc);
    }
    for (const l of this.linkOrders.values()) {
      l.retire(old);
      l.add(doc);
    }
  }

  remove(id: string): Doc | undefined {
    const old = this.docs.get(id);
    if (!old) return undefined;
    this.indexes.forEach((ix) => ix.remove(old, ix.keysOf(old)));
    this.docs.delete(id);
    this.positions?.delete(id);
    for (const t of this.trigrams.values()) t.retire(old);
    for (const l of this.linkOrders.values()) l.retire(old);
    return old;
  }

  /**
   * Adds an index over the existing documents; fails with E11000 if a unique one finds duplicates.
   * Without `enforceUnique` (an index of documents already checked: start-up, undo) it is built
   * when first needed.
   */
  addIndex(spec: IndexSpec, enforceUnique = true): void {
    this.indexes.push(this.buildIndex(spec, enforceUnique));
  }

  private buildIndex(spec: IndexSpec, enforceUnique: boolean): SecondaryIndex {
    const ix = new SecondaryIndex(spec);
    if (!enforceUnique) {
      ix.defer(() => this.docs.values());
      return ix;
    }
    const duplicate = ix.fill(this.docs.values(), true);
    if (duplicate) throw new DuplicateKeyError(this.ns, ix, duplicate.values);
    return ix;
  }

  /**
   * Gives an index new options (`collMod`: `expireAfterSeconds`, `hidden`), keeping its place and
   * entries (its key is the same).
   */
  modifyIndex(spec: IndexSpec): IndexSpec | undefined {
    const i = this.indexes.findIndex((ix) => ix.spec.name === spec.name);
    const index = this.indexes[i];
    if (!index) return undefined;
    const old = index.spec;
    index.respec(spec);
    return old;
  }

  dropIndex(name: string): void {
    const i = this.indexes.findIndex((ix) => ix.spec.name === name);
    if (i <= 0) return;
    const [dropped] = this.indexes.splice(i, 1);
    const field = dropped?.fields[0];
    if (field !== undefined && !this.indexes.some((ix) => ix.fields[0] === field)) this.trigrams.delete(field);
  }
}

export function checkId(id: unknown): string {
  const t = bsonTypeOf(id);
  if (t === 'array') throw commandError('InvalidIdField', `The '_id' value cannot be of type array`);
  if (t === 'regex') throw commandError('InvalidIdField', `The '_id' value cannot be of type regex`);
  if (t === 'missing' || t === 'undefined') throw commandError('InvalidIdField', `The '_id' value cannot be undefined`);
  return valueKey(id);
}
