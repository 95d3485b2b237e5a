import { FIRST, LAST } from '../storage/index-keys.js';
import type { SecondaryIndex } from '../storage/secondary-index.js';
import { inInterval, type Interval, type KeyCheck } from './index-bounds.js';

/** Distinct values a count steps over (all fields together) before it reads the keys instead. */
const MAX_STEPS = 256;

/**
 * The number of keys in `spans` that pass `checks` (see keyChecks), counted with ranks instead of
 * reading each key: a checked field whose later fields are unchecked is a rank difference per
 * interval; an unchecked or checked field before other checked ones is stepped over one distinct
 * value at a time (a skip scan). `{ tags: 3, publishedAt: { $ne: null } }` on the
 * `{ tags, locale, publishedAt }` index: per locale, two ranges of `publishedAt` values, so a
 * handful of look-ups whatever the number of entries. Undefined (read the keys) when a field's
 * direction is descending or the fields take more distinct values than the steps allowed.
 * `probes` counts the look-ups (keys examined).
 */
export function countKeysByRank(
  index: SecondaryIndex,
  spans: Array<[number, number]>,
  checks: KeyCheck[],
  probes: { n: number },
): number | undefined {
  if (index.fields.length < 2 || index.directions.some((d) => d < 0)) return undefined;
  const width = index.fields.length;
  const byPosition: Array<Interval[] | undefined> = new Array<Interval[] | undefined>(width);
  for (const { position, intervals } of checks) byPosition[position] = intervals;
  let lastChecked = -1;
  for (let f = 0; f < width; f++) if (byPosition[f]) lastChecked = f;
  const entries = index.entries;
  const keyAt = (position: number): unknown[] => {
    let key: unknown[] = [];
    entries.scan(position, position + 1, 1, (k) => {
      key = k as unknown[];
      return false;
    });
    return key;
  };
  const rank = (prefix: unknown[], value: unknown, after: boolean): number => {
    probes.n++;
    return entries.rank(
      [...prefix, value, ...new Array<symbol>(width - prefix.length - 1).fill(after ? LAST : FIRST)],
      after ? 1 : -1,
    );
  };

  let steps = 0;
  /** keys in [a, b) share `prefix` (fields before f) */
  const count = (a: number, b: number, f: number, prefix: unknown[]): number | undefined => {
    if (a >= b) return 0;
    if (f > lastChecked) return b - a;
    const intervals = byPosition[f];
    if (intervals && f === lastChecked) {
      const ranges = intervals
        .map((i): [number, number] => [
          Math.max(a, rank(prefix, i.lo, !i.loInc)),
          Math.min(b, rank(prefix, i.hi, i.hiInc)),
        ])
        .sort((x, y) => x[0] - y[0]);
      // intervals may overlap ($in with a repeated value): each position counts once
      let n = 0;
      let covered = a;
      for (const [from, to] of ranges) {
        const start = Math.max(from, covered);
        if (to > start) n += to - start;
        covered = Math.max(covered, to);
      }
      return n;
    }
    let n = 0;
    for (let at = a; at < b;) {
      if (++steps > MAX_STEPS) return undefined;
      const value = keyAt(at)[f];
      const end = Math.min(b, rank(prefix, value, true));
      if (!intervals || intervals.some((i) => inInterval(value, i))) {
        const sub = count(at, end, f + 1, [...prefix, value]);
        if (sub === undefined) return undefined;
        n += sub;
      }
      at = end;
    }
    return n;
  };

  let total = 0;
  for (const [a, b] of spans) {
    const n = count(a, b, 0, []);
    if (n === undefined) return undefined;
    total += n;
  }
  return total;
}
