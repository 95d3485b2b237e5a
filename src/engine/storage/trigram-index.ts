import { pathValues } from '../bson/path.js';
import type { Doc } from '../bson/types.js';
import { unbudgeted } from '../work.js';

/** Ascending slots of the document versions holding one trigram (appended in slot order). */
class PostingList {
  ids = new Int32Array(4);
  length = 0;

  push(slot: number): void {
    if (this.length === this.ids.length) {
      const grown = new Int32Array(Math.max(4, this.ids.length * 2));
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = slot;
  }

  /** Gives back the room a list grown by doubling keeps (a quarter of it on average). */
  trim(): void {
    if (this.ids.length > this.length) this.ids = this.ids.slice(0, this.length);
  }
}

/**
 * Substring look-ups on the string values of one field. Every document version holding a string
 * gets a slot (in insertion order) that keeps its values case-folded as a JavaScript `i` regex
 * compares characters; for every three-character sequence of those values, a posting list holds
 * the ascending slots containing it. A literal can only occur in a value holding all of its
 * trigrams, so intersecting their lists gives candidates, and comparing the folded values settles
 * each one without reading the document (see `matches`). Slots are append-only: an updated or
 * deleted document leaves its old slot behind, skipped at query time; everything is rebuilt once
 * old slots outnumber the live ones.
 */
export class TrigramIndex {
  private lists = new Map<string, PostingList>();
  /** slot → the document version, undefined once retired */
  private docs: Array<Doc | undefined> = [];
  /** slot → the version's string value, or values (an array field), case-folded; "" once retired */
  private folded: Array<string | string[]> = [];
  private slots = new Map<Doc, number>();
  private stale = 0;

  constructor(
    readonly field: string,
    private readonly documents: () => Iterable<Doc>,
    private readonly size: () => number,
  ) {
    this.rebuild();
  }

  add(doc: Doc): void {
    const values = foldedValues(doc, this.field);
    if (values.length === 0) return;
    const slot = this.docs.length;
    this.docs.push(doc);
    // one value (the usual case) without an array around it: one memory access less per candidate
    this.folded.push(values.length === 1 ? values[0] : values);
    this.slots.set(doc, slot);
    const grams = new Set<string>();
    for (const v of values) for (let i = 0; i + 3 <= v.length; i++) grams.add(v.slice(i, i + 3));
    for (const gram of grams) {
      let list = this.lists.get(gram);
      if (!list) this.lists.set(gram, (list = new PostingList()));
      list.push(slot);
    }
  }

  /** A document version was replaced or removed: its slot is now stale. */
  retire(doc: Doc): void {
    const slot = this.slots.get(doc);
    if (slot === undefined) return;
    this.slots.delete(doc);
    this.docs[slot] = undefined;
    this.folded[slot] = '';
    this.stale++;
  }

  /** An upper bound of the number of candidates (the shortest list), without building them. */
  estimate(literal: string): number {
    return Math.min(...this.listsOf(foldCase(literal)).map((l) => l.length));
  }

  /**
   * Current documents that may contain `literal` (at least 3 characters), each once, in slot
   * order: those holding all of its trigrams.
   */
  candidates(literal: string): Doc[] {
    const out: Doc[] = [];
    for (const slot of this.intersection(foldCase(literal))) out.push(this.docs[slot] as Doc);
    return out;
  }

  /**
   * Current documents with a value containing `literal` (at least 3 characters) as a JavaScript
   * `i` regex of the escaped literal finds it, each once, in slot order, and the number of
   * candidates settled on their folded values to find them.
   */
  matches(literal: string): { docs: Doc[]; settled: number } {
    const needle = foldCase(literal);
    const slots = this.intersection(needle);
    const docs: Doc[] = [];
    for (const slot of slots) if (includes(this.folded[slot], needle)) docs.push(this.docs[slot] as Doc);
    return { docs, settled: slots.length };
  }

  /** How many current documents `matches` would answer (without building them), and the candidates settled. */
  matchCount(literal: string): { count: number; settled: number } {
    const needle = foldCase(literal);
    const slots = this.intersection(needle);
    let count = 0;
    for (const slot of slots) if (includes(this.folded[slot], needle)) count++;
    return { count, settled: slots.length };
  }

  /** Whether the current version `doc` has a value containing `literal` (as `matches` decides). */
  contains(doc: Doc, foldedLiteral: string): boolean {
    const slot = this.slots.get(doc);
    return slot !== undefined && includes(this.folded[slot], foldedLiteral);
  }

  /** Live slots in every list of the literal's trigrams: the smallest list walked, the others probed. */
  private intersection(needle: string): number[] {
    if (this.stale > this.size()) this.rebuild();
    const lists = this.listsOf(needle).sort((a, b) => a.length - b.length);
    const out: number[] = [];
    if (lists.length === 0 || lists[0].length === 0) return out;
    const [first, ...rest] = lists;
    // each other list is probed forward from where the previous probe stopped (gallop, then bisect)
    const cursors = new Int32Array(rest.length);
    candidates: for (let i = 0; i < first.length; i++) {
      const slot = first.ids[i];
      if (this.docs[slot] === undefined) continue;
      for (let r = 0; r < rest.length; r++) {
        const at = seek(rest[r], cursors[r], slot);
        cursors[r] = at;
        if (at >= rest[r].length) break candidates;
        if (rest[r].ids[at] !== slot) continue candidates;
      }
      out.push(slot);
    }
    return out;
  }

  private listsOf(needle: string): PostingList[] {
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= needle.length; i++) grams.add(needle.slice(i, i + 3));
    return [...grams].map((g) => this.lists.get(g) ?? EMPTY);
  }

  /** Built over the current documents; like an index build, not charged to the reading command. */
  private rebuild(): void {
    this.lists = new Map();
    this.docs = [];
    this.folded = [];
    this.slots = new Map();
    this.stale = 0;
    unbudgeted(() => {
      for (const doc of this.documents()) this.add(doc);
      for (const list of this.lists.values()) list.trim();
    });
  }
}

const EMPTY = new PostingList();

/** The first position at or after `from` whose slot is >= `slot` (the list's length if none). */
function seek(list: PostingList, from: number, slot: number): number {
  const ids = list.ids;
  if (from >= list.length || ids[from] >= slot) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < list.length && ids[hi] < slot) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > list.length) hi = list.length;
  // ids[lo] < slot; the answer is in (lo, hi]
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < slot) lo = mid;
    else hi = mid;
  }
  return hi;
}

function includes(values: string | string[], needle: string): boolean {
  if (typeof values === 'string') return values.includes(needle);
  for (const v of values) if (v.includes(needle)) return true;
  return false;
}

/** The string values (array elements included) of `field` in one document, case-folded. */
function foldedValues(doc: Doc, field: string): string[] {
  const top = field.includes('.') ? undefined : doc[field];
  const values = typeof top === 'string' ? [top] : pathValues(doc, field);
  const out: string[] = [];
  for (const v of values) if (typeof v === 'string') out.push(foldCase(v));
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

/**
 * The literal of an unanchored case-insensitive regex that is nothing else (flags among `i` and
 * `m`): `matches` then finds exactly the values it matches. Undefined otherwise.
 */
export function containedLiteral(source: string, flags: string): string | undefined {
  if (!flags.includes('i') || source.startsWith('^') || (source.endsWith('$') && !source.endsWith('\\$')))
    return undefined;
  return regexLiteral(source, flags);
}
