import { compareValues, valueKey } from '../bson/compare.js';
import { pathValues } from '../bson/path.js';
import type { Doc } from '../bson/types.js';
import { commandError } from '../errors.js';

export interface IndexSpec {
  v: number;
  key: Record<string, number>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  [option: string]: unknown;
}

export interface IndexEntry {
  value: unknown;
  id: string;
}

/**
 * A hash index over one or more fields: full compound keys (for unique checks and equality) and
 * the first field alone (for look-ups by prefix), plus a sorted view of the first field built on
 * demand for range look-ups. Array values make it multikey, one entry per element.
 */
export class SecondaryIndex {
  readonly fields: string[];
  private readonly full = new Map<string, Set<string>>();
  private readonly prefix = new Map<string, Set<string>>();
  private sorted: IndexEntry[] | null = null;
  /** set while the index is not built yet: the documents to build it from when first needed */
  private pending: (() => Iterable<[string, Doc]>) | undefined;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
  }

  /**
   * Builds the index from `source` (the collection's current documents) when it is first needed,
   * rather than now: indexes loaded at start-up cost nothing until a command uses them. Until then
   * writes leave it alone (the build reads the documents as they are by then).
   */
  defer(source: () => Iterable<[string, Doc]>): void {
    this.full.clear();
    this.prefix.clear();
    this.sorted = null;
    this.pending = source;
  }

  private ready(): void {
    const source = this.pending;
    if (!source) return;
    this.pending = undefined;
    for (const [id, doc] of source()) this.add(id, this.computeKeys(doc));
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /**
   * The compound keys of a document, or none when a sparse index leaves it out. An index not built
   * yet keeps no keys, except a unique one (its check builds it) or a compound one (whose keys also
   * check for parallel arrays).
   */
  keysOf(doc: Doc): Array<{ key: string; values: unknown[] }> {
    if (this.pending && !this.unique && this.fields.length === 1) return [];
    return this.computeKeys(doc);
  }

  private computeKeys(doc: Doc): Array<{ key: string; values: unknown[] }> {
    const perField = this.fields.map((f) => pathValues(doc, f));
    if (this.spec.sparse && perField.every((vs) => vs.length === 1 && vs[0] === undefined)) return [];
    if (perField.filter((vs) => vs.length > 1).length > 1) {
      throw commandError('BadValue', `cannot index parallel arrays [${this.fields.join('] [')}]`, { code: 171 });
    }
    let combos: unknown[][] = [[]];
    for (const vs of perField) combos = combos.flatMap((c) => vs.map((v) => [...c, v]));
    const seen = new Set<string>();
    const out: Array<{ key: string; values: unknown[] }> = [];
    for (const values of combos) {
      const key = values.map(valueKey).join('\u0000');
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ key, values });
      }
    }
    return out;
  }

  /** The first other document holding one of these keys, for unique checks. */
  conflict(
    keys: Array<{ key: string; values: unknown[] }>,
    selfId: string | undefined,
  ): { values: unknown[] } | undefined {
    if (!this.unique) return undefined;
    this.ready();
    for (const k of keys) {
      const ids = this.full.get(k.key);
      if (ids) for (const id of ids) if (id !== selfId) return { values: k.values };
    }
    return undefined;
  }

  add(id: string, keys: Array<{ key: string; values: unknown[] }>): void {
    this.sorted = null;
    if (this.pending) return;
    for (const k of keys) {
      addTo(this.full, k.key, id);
      if (this.fields.length > 1) addTo(this.prefix, valueKey(k.values[0]), id);
    }
  }

  remove(id: string, keys: Array<{ key: string; values: unknown[] }>): void {
    this.sorted = null;
    if (this.pending) return;
    for (const k of keys) {
      removeFrom(this.full, k.key, id);
      if (this.fields.length > 1) removeFrom(this.prefix, valueKey(k.values[0]), id);
    }
  }

  /** Ids whose first indexed field equals one of `values` (null also finds missing unless sparse). */
  lookup(values: unknown[]): Set<string> | undefined {
    this.ready();
    const map = this.fields.length > 1 ? this.prefix : this.full;
    const out = new Set<string>();
    for (const v of values) {
      if ((v === null || v === undefined) && this.spec.sparse) return undefined;
      const ids = map.get(valueKey(v));
      if (ids) for (const id of ids) out.add(id);
    }
    return out;
  }

  /** Entries of the first field in BSON order, for range look-ups. */
  sortedEntries(allEntries: () => Iterable<[string, Doc]>): IndexEntry[] {
    if (this.sorted) return this.sorted;
    const entries: IndexEntry[] = [];
    const field = this.fields[0];
    for (const [id, doc] of allEntries()) for (const v of pathValues(doc, field)) entries.push({ value: v, id });
    entries.sort((a, b) => compareValues(a.value, b.value));
    this.sorted = entries;
    return entries;
  }
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let s = map.get(key);
  if (!s) {
    s = new Set();
    map.set(key, s);
  }
  s.add(id);
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const s = map.get(key);
  if (!s) return;
  s.delete(id);
  if (s.size === 0) map.delete(key);
}
