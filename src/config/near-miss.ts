import { distance } from 'fastest-levenshtein';

/** `a` and `b` differ only by two neighbouring letters swapped ("prot" / "port"). */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const i = [...a].findIndex((c, k) => c !== b[k]);
  return i >= 0 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** How many slips a name of this length may hold and still be read as a typo: none below 4 letters. */
function allowedSlips(length: number): number {
  if (length < 4) return 0;
  return length < 6 ? 1 : 2;
}

/**
 * The known name `name` is most likely a typo of (case aside, one slip for short names, two for
 * names of six letters or more, a swap of neighbouring letters counting as one); undefined when
 * none is that close, so a name that is merely unknown is never taken for a typo.
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const lower = name.toLowerCase();
  let best: { name: string; slips: number } | undefined;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const slips = isSwap(lower, other) ? 1 : distance(lower, other);
    if (slips > allowedSlips(Math.min(lower.length, other.length)) && lower !== other) continue;
    if (!best || slips < best.slips) best = { name: candidate, slips };
  }
  return best?.name;
}
