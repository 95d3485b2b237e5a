import { pathValues } from '../bson/path.js';
import type { Doc } from '../bson/types.js';

/**
 * Substring candidates for the string values of one field: for every three-character sequence of
 * a value (case-folded as a JavaScript `i` regex compares characters), the document versions
 * holding it. A literal pattern can only match a document holding all of its trigrams, so the
 * intersection of their lists is a superset of the matches (the filter is still applied).
 * Lists are append-only: an updated or deleted document leaves its old version behind, which is
 * dropped at query time; the index is rebuilt once old versions outnumber the documents.
 */
export class TrigramIndex {
  private lists = new Map<string, Doc[]>();
  private retired = new WeakSet<Doc>();
  private stale = 0;

  constructor(
    readonly field: string,
    private readonly documents: () => Iterable<Doc>,
    private readonly size: () => number,
  ) {
    this.rebuild();
  }

  add(doc: Doc): void {
    for (const gram of trigramsOf(doc, this.field)) {
      const list = this.lists.get(gram);
      if (list) list.push(doc);
      else this.lists.set(gram, [doc]);
    }
  }

  /** A document version was replaced or removed: its entries are now stale. */
  retire(doc: Doc): void {
    this.retired.add(doc);
    this.stale++;
  }

  /** An upper bound of the number of candidates (the shortest list), without building them. */
  estimate(literal: string): number {
    return Math.min(...this.listsOf(literal).map((l) => l.length));
  }

  /** Current documents that may contain `literal` (at least 3 characters), each once. */
  candidates(literal: string): Doc[] {
    if (this.stale > this.size()) this.rebuild();
    const lists = this.listsOf(literal).sort((a, b) => a.length - b.length);
    if (lists.length === 0 || lists[0].length === 0) return [];
    let found = new Set(this.stale === 0 ? lists[0] : lists[0].filter((doc) => !this.retired.has(doc)));
    // the two smallest lists prune the most; the filter decides the rest
    for (const list of lists.slice(1, 2)) {
      const next = new Set<Doc>();
      for (const doc of list) if (found.has(doc)) next.add(doc);
      found = next;
      if (found.size === 0) break;
    }
    return [...found];
  }

  private listsOf(literal: string): Doc[][] {
    return [...distinctTrigrams(foldCase(literal))].map((g) => this.lists.get(g) ?? []);
  }

  private rebuild(): void {
    this.lists = new Map();
    this.retired = new WeakSet();
    this.stale = 0;
    for (const doc of this.documents()) this.add(doc);
  }
}

/** Trigrams of the string values (array elements included) of `field` in one document. */
function trigramsOf(doc: Doc, field: string): Set<string> {
  const top = field.includes('.') ? undefined : doc[field];
  const values = typeof top === 'string' ? [top] : pathValues(doc, field);
  const out = new Set<string>();
  for (const v of values) if (typeof v === 'string') for (const g of distinctTrigrams(foldCase(v))) out.add(g);
  return out;
}

function distinctTrigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) out.add(text.slice(i, i + 3));
  return out;
}

/**
 * Characters as a non-unicode `i` regex compares them (ECMAScript Canonicalize: the upper case
 * when it is one code unit, and never from non-ASCII to ASCII), so that a case-insensitive match
 * of the pattern implies the folded pattern is a substring of the folded text.
 */
export function foldCase(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toUpperCase();
  let out = '';
  for (const ch of text) {
    if (ch.length !== 1) {
      out += ch;
      continue;
    }
    const upper = ch.toUpperCase();
    out += upper.length === 1 && !(ch.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : ch;
  }
  return out;
}

/**
 * The literal a regex looks for, when it is nothing else: characters and escaped punctuation,
 * optionally anchored (`^`, `$`), flags among `i` and `m`. Undefined otherwise.
 */
export function regexLiteral(source: string, flags: string): string | undefined {
  if (/[^im]/.test(flags)) return undefined;
  let body = source;
  if (body.startsWith('^')) body = body.slice(1);
  if (body.endsWith('$') && !body.endsWith('\\$')) body = body.slice(0, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') {
      const next = body[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i++;
    } else if ('^$.|?*+()[]{}'.includes(ch)) return undefined;
    else out += ch;
  }
  return out;
}
