import { UUID } from 'bson';
import { compareStrings, compareValues, valueKey } from '../bson/compare.js';
import { bsonTypeOf, type Doc } from '../bson/types.js';
import { commandError, CommandError } from '../errors.js';
import { formatKeyValue } from './key-format.js';
import { SecondaryIndex, type IndexSpec } from './secondary-index.js';

export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

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

/** One collection: documents by `_id` key in natural (insertion) order, and its indexes. */
export class Collection {
  readonly uuid = new UUID();
  private readonly docs = new Map<string, Doc>();
  private readonly position = new Map<string, number>();
  private nextPosition = 0;
  /** the `_id` of the last document inserted while natural order is ascending `_id` order */
  private lastId: unknown = undefined;
  private idOrdered = true;
  readonly indexes: SecondaryIndex[] = [new SecondaryIndex(ID_INDEX_SPEC)];

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Doc = {},
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }
  get size(): number {
    return this.docs.size;
  }

  all(): IterableIterator<Doc> {
    return this.docs.values();
  }
  entries(): IterableIterator<[string, Doc]> {
    return this.docs.entries();
  }
  get(id: string): Doc | undefined {
    return this.docs.get(id);
  }
  getById(idValue: unknown): Doc | undefined {
    return this.docs.get(valueKey(idValue));
  }

  /** Documents for a set of ids, in natural order. */
  inNaturalOrder(ids: Iterable<string>): Doc[] {
    const list: Array<[number, Doc]> = [];
    for (const id of ids) {
      const d = this.docs.get(id);
      if (d) list.push([this.position.get(id) ?? 0, d]);
    }
    list.sort((a, b) => a[0] - b[0]);
    return list.map((e) => e[1]);
  }

  /**
   * Whether natural order is ascending `_id` order (every insert so far had a larger `_id` than
   * the one before, as with counter-assigned ids): a `$sort` on `_id` is then a walk in natural order.
   */
  isIdOrdered(): boolean {
    return this.idOrdered;
  }

  /** Documents in ascending `_id` order, from the `_id` index's sorted view (`direction` -1: descending). */
  *inIdOrder(direction: 1 | -1): Generator<Doc> {
    const entries = this.indexes[0].sortedEntries(() => this.docs.entries());
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[direction === 1 ? i : entries.length - 1 - i] as { id: string };
      const doc = this.docs.get(entry.id);
      if (doc) yield doc;
    }
  }

  index(name: string): SecondaryIndex | undefined {
    return this.indexes.find((i) => i.spec.name === name);
  }

  /** The index whose first field is `field`, preferring `_id` and unique ones. */
  indexOn(field: string): SecondaryIndex | undefined {
    return this.indexes.find((i) => i.fields[0] === field);
  }

  insert(doc: Doc): void {
    const id = checkId(doc._id);
    if (this.docs.has(id)) throw new DuplicateKeyError(this.ns, this.indexes[0], [doc._id]);
    const keys = this.indexes.map((ix) => ix.keysOf(doc));
    this.indexes.forEach((ix, i) => {
      const c = ix.conflict(keys[i], undefined);
      if (c) throw new DuplicateKeyError(this.ns, ix, c.values);
    });
    this.indexes.forEach((ix, i) => ix.add(id, keys[i]));
    if (this.docs.size === 0) this.idOrdered = true;
    else if (this.idOrdered && compareValues(doc._id, this.lastId, compareStrings) <= 0) this.idOrdered = false;
    this.lastId = doc._id;
    this.docs.set(id, doc);
    this.position.set(id, this.nextPosition++);
  }

  /**
   * Puts documents known to be valid (a snapshot's or a journal's: accepted writes) in bulk: a new
   * `_id` is added in natural order, a known one replaced in place; no unique checks, and the
   * indexes are rebuilt when first needed (start-up builds no index).
   */
  load(docs: Doc[]): void {
    for (const doc of docs) {
      const id = checkId(doc._id);
      if (this.docs.has(id)) {
        this.docs.set(id, doc);
        continue;
      }
      if (this.docs.size === 0) this.idOrdered = true;
      else if (this.idOrdered && compareValues(doc._id, this.lastId, compareStrings) <= 0) this.idOrdered = false;
      this.lastId = doc._id;
      this.docs.set(id, doc);
      this.position.set(id, this.nextPosition++);
    }
    for (const ix of this.indexes) ix.defer(() => this.docs.entries());
  }

  /** Replaces a stored document by a new version with the same `_id`. */
  replace(id: string, doc: Doc): void {
    const old = this.docs.get(id);
    if (!old) return;
    const oldKeys = this.indexes.map((ix) => ix.keysOf(old));
    const newKeys = this.indexes.map((ix) => ix.keysOf(doc));
    this.indexes.forEach((ix, i) => {
      const c = ix.conflict(newKeys[i], id);
      if (c) throw new DuplicateKeyError(this.ns, ix, c.values);
    });
    this.indexes.forEach((ix, i) => {
      if (sameKeys(oldKeys[i], newKeys[i])) return; // unchanged: keep the index (and its sorted view)
      ix.remove(id, oldKeys[i]);
      ix.add(id, newKeys[i]);
    });
    this.docs.set(id, doc);
  }

  remove(id: string): Doc | undefined {
    const old = this.docs.get(id);
    if (!old) return undefined;
    this.indexes.forEach((ix) => ix.remove(id, ix.keysOf(old)));
    this.docs.delete(id);
    this.position.delete(id);
    return old;
  }

  /**
   * Adds an index over the existing documents; fails with E11000 if a unique one finds duplicates.
   * Without `enforceUnique` (an index of documents already checked: start-up, undo) it is built
   * when first needed.
   */
  addIndex(spec: IndexSpec, enforceUnique = true): void {
    const ix = new SecondaryIndex(spec);
    if (!enforceUnique) {
      ix.defer(() => this.docs.entries());
      this.indexes.push(ix);
      return;
    }
    for (const [id, doc] of this.docs) {
      const keys = ix.keysOf(doc);
      if (enforceUnique) {
        const c = ix.conflict(keys, id);
        if (c) throw new DuplicateKeyError(this.ns, ix, c.values);
      }
      ix.add(id, keys);
    }
    this.indexes.push(ix);
  }

  dropIndex(name: string): void {
    const i = this.indexes.findIndex((ix) => ix.spec.name === name);
    if (i > 0) this.indexes.splice(i, 1);
  }
}

function sameKeys(a: Array<{ key: string }>, b: Array<{ key: string }>): boolean {
  return a.length === b.length && a.every((k, i) => k.key === b[i]?.key);
}

export function checkId(id: unknown): string {
  const t = bsonTypeOf(id);
  if (t === 'array') throw commandError('InvalidIdField', `The '_id' value cannot be of type array`);
  if (t === 'regex') throw commandError('InvalidIdField', `The '_id' value cannot be of type regex`);
  if (t === 'missing' || t === 'undefined') throw commandError('InvalidIdField', `The '_id' value cannot be undefined`);
  return valueKey(id);
}
