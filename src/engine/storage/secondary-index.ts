import { compareValues } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';
import { keyComparator } from './index-keys.js';
import { KeyList } from './key-list.js';

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
  readonly entries: KeyList;
  readonly compareKey: (key: unknown, probe: unknown) => number;
  /** positions of the fields on which some document reached an array (never cleared, as in MongoDB) */
  readonly multikeyFields = new Set<number>();

  /** each field's path split on dots; null for a top-level field */
  private readonly paths: Array<string[] | null>;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => (f.includes('.') ? f.split('.') : null));
    this.directions = this.fields.map((f) => (spec.key[f] < 0 ? -1 : 1));
    this.compareKey = keyComparator(this.directions);
    this.entries = new KeyList(this.compareKey, (a, b) => compareValues(a, b));
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

  add(doc: Doc, keys: unknown[]): void {
    this.note(doc);
    for (const key of keys) this.entries.insert(key, doc);
  }

  remove(doc: Doc, keys: unknown[]): void {
    for (const key of keys) this.entries.remove(key, doc);
  }

  /** Points this document's entries (same keys) at its new version. */
  swap(doc: Doc, keys: unknown[]): void {
    for (const key of keys) this.entries.swap(key, doc);
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
      if (this.multikeyFields.has(f)) continue;
      const path = this.paths[f];
      if (path ? reachesArray(doc, path) : Array.isArray(doc[this.fields[f]])) this.multikeyFields.add(f);
    }
  }
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
