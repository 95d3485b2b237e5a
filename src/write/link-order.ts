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

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The key of the `n`th link appended anywhere (a shared counter, models/counters.ts): an integer
 * key of at least 7 digits (`g0000000`...), so it sorts after every key of every list except the
 * ones made this way (a list's own keys start at `a0` and reach `g` only after 56.8 billion
 * appends), and after those made earlier. Appending needs no look at the list, whatever its length.
 */
export function appendedKey(n: number): string {
  let digits = '';
  for (let rest = n; rest > 0; rest = Math.floor(rest / 62)) digits = DIGITS[rest % 62] + digits;
  digits = digits.padStart(7, '0');
  return String.fromCharCode('a'.charCodeAt(0) + digits.length - 1) + digits;
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
