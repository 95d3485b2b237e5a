import { compareValues } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { FIRST, keyComparator, LAST } from './index-keys.js';
import { KeyList } from './key-list.js';

/**
 * The entries of a relation in the order each link keeps for it, as the service stores a to-many
 * inverse side (tag.articles ↔ article.tags): every document holding an id `v` in `field` keeps
 * its position in `v`'s list at `orderPath.<v>` (`__order.tags.7`). One entry per (document, id):
 * key `[id, position]` (null when the link has no position), then `_id`. So the first entries of
 * one id in list order are a walk of that id's range, however many documents it holds, where a
 * `$sort` on the computed position would read them all.
 *
 * Engine-internal (MongoDB has no index on a value computed from two fields): built over the
 * collection when a read first needs it, then kept up to date by every write, as the trigram
 * lists are. Ids other than integers and strings, positions that are arrays, and order paths that
 * are not embedded documents make the collection `irregular` for it: such reads take the general
 * path, which evaluates the position per document as the expression does.
 */
export class LinkOrderIndex {
  private readonly list = new KeyList(keyComparator([1, 1]), (a, b) => compareValues(a, b), 2);
  /** documents whose values this index cannot represent exactly (see above) */
  private irregular = 0;
  private readonly orderParts: string[];

  constructor(
    readonly field: string,
    readonly orderPath: string,
    docs: Iterable<Doc>,
  ) {
    this.orderParts = orderPath.split('.');
    const keys: unknown[] = [];
    const owners: Doc[] = [];
    for (const doc of docs) {
      const entries = this.entriesOf(doc);
      if (!entries) {
        this.irregular++;
        continue;
      }
      for (const key of entries) {
        keys.push(key);
        owners.push(doc);
      }
    }
    const order = Array.from({ length: keys.length }, (_, i) => i);
    const compareKey = keyComparator([1, 1]);
    order.sort((a, b) => compareKey(keys[a], keys[b]) || compareValues((owners[a] as Doc)._id, (owners[b] as Doc)._id));
    this.list.load(keys, owners, order);
  }

  /** Whether every document's entries are exact (see above): else reads must not use the index. */
  get exact(): boolean {
    return this.irregular === 0;
  }

  add(doc: Doc): void {
    const entries = this.entriesOf(doc);
    if (!entries) {
      this.irregular++;
      return;
    }
    for (const key of entries) this.list.insert(key, doc);
  }

  retire(doc: Doc): void {
    const entries = this.entriesOf(doc);
    if (!entries) {
      this.irregular--;
      return;
    }
    for (const key of entries) this.list.remove(key, doc);
  }

  /**
   * Visits the documents linked to `id` in their list order (no position first, by `_id`), until
   * `visit` returns false.
   */
  walk(id: number | string, visit: (doc: Doc) => boolean): void {
    const from = this.list.rank([id, FIRST], -1);
    const to = this.list.rank([id, LAST], 1);
    this.list.scan(from, to, 1, (_key, doc) => visit(doc));
  }

  /** `[id, position]` for each distinct id of the document, or undefined when it is irregular. */
  private entriesOf(doc: Doc): unknown[][] | undefined {
    const value = doc[this.field];
    const ids = Array.isArray(value) ? value : [value];
    let order: unknown = doc;
    for (const part of this.orderParts) {
      if (order === undefined || order === null) break;
      if (!isPlainObject(order)) return undefined;
      order = Object.hasOwn(order, part) ? order[part] : undefined;
    }
    if (order !== undefined && order !== null && !isPlainObject(order)) return undefined;
    const positions = order as Doc | null | undefined;
    const entries: unknown[][] = [];
    const seen = new Set<unknown>();
    for (const id of ids) {
      if (id === undefined || id === null || Array.isArray(id) || isPlainObject(id)) continue;
      const key = linkKey(id);
      if (key === undefined) return undefined;
      if (seen.has(id)) continue;
      seen.add(id);
      const position = positions && Object.hasOwn(positions, key) ? positions[key] : null;
      if (Array.isArray(position)) return undefined;
      entries.push([id, position === undefined ? null : position]);
    }
    return entries;
  }
}

/**
 * The name of an id's position among an entry's order keys, as `$toString` spells the id; undefined
 * for ids whose spelling this index does not reproduce (anything but integers and strings).
 */
export function linkKey(id: unknown): string | undefined {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
  return undefined;
}
