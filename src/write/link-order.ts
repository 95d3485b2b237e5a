// Order keys of a to-many inverse side whose owning side is to-one (author.articles ↔
// article.author): each owning document keeps its position in the inverse list as a string key
// (`__order.<field>`) that sorts in byte order. Moving one entry rewrites only that entry's key
// (fractional indexing: a key can always be made between two others), so a change stays one
// atomic update per document. Keys from the `fractional-indexing` library (rocicorp).
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * The keys to write so that the list reads `next`: entries that keep a key in increasing order
 * keep it (`moved` entries never do); the others get keys between their kept neighbours.
 */
export function orderKeys(next: number[], current: Map<number, string>, moved: Set<number>): Map<number, string> {
  const kept: (string | null)[] = [];
  let last: string | null = null;
  for (const id of next) {
    const key = current.get(id);
    const keep = key !== undefined && !moved.has(id) && (last === null || key > last);
    kept.push(keep ? key : null);
    if (keep) last = key;
  }
  const written = new Map<number, string>();
  let i = 0;
  while (i < next.length) {
    if (kept[i] !== null) {
      i++;
      continue;
    }
    const start = i;
    while (i < next.length && kept[i] === null) i++;
    const keys = between(start > 0 ? kept[start - 1] : null, i < next.length ? kept[i] : null, i - start);
    keys.forEach((key, k) => written.set(next[start + k], key));
  }
  return written;
}

/** A key after `last` (the end of a list). */
export function keyAfter(last: string | null): string {
  return generateKeyBetween(last, null);
}

function between(low: string | null, high: string | null, count: number): string[] {
  return generateNKeysBetween(low, high, count);
}

/** A stored value usable as a bound (anything else, e.g. written by hand, counts as no key). */
export function isOrderKey(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    generateKeyBetween(value, null);
    return true;
  } catch {
    return false;
  }
}
