import { compareValues } from '../bson/compare.js';
import { bsonTypeOf, typeRank } from '../bson/types.js';

/**
 * The start (`high` false) or the end (`high` true) of a BSON type bracket in MongoDB's order:
 * `{ $gt: 5 }` covers the keys after 5 up to the end of the numbers. Only ever in probes.
 */
export class TypeEdge {
  constructor(
    readonly rank: number,
    readonly high: boolean,
  ) {}
}

/** Below and above every value (MinKey and MaxKey included). */
export const BOTTOM = new TypeEdge(0, true);
export const TOP = new TypeEdge(99, false);

/** The bracket edges around the values of the same canonical type as `v`. */
export function bracketOf(v: unknown): { start: TypeEdge; end: TypeEdge } {
  const rank = typeRank(bsonTypeOf(v));
  return { start: new TypeEdge(rank, false), end: new TypeEdge(rank, true) };
}

/**
 * Index-order sentinels for the fields of a compound probe after the constrained ones: before or
 * after every key with the same leading values, whatever the direction of the field.
 */
export const FIRST = Symbol('first');
export const LAST = Symbol('last');

/** A key value (never an edge) against a probe value (maybe an edge), in MongoDB's order. */
export function compareKeyValue(value: unknown, probe: unknown): number {
  if (probe instanceof TypeEdge) {
    const rank = typeRank(bsonTypeOf(value));
    if (rank !== probe.rank) return rank < probe.rank ? -1 : 1;
    return probe.high ? -1 : 1;
  }
  return compareValues(value, probe);
}

/**
 * The key comparator of an index with these field directions: a single-field index keeps each
 * key as the bare value, a compound one as an array of values.
 */
export function keyComparator(directions: number[]): (key: unknown, probe: unknown) => number {
  if (directions.length === 1) {
    const dir = directions[0] < 0 ? -1 : 1;
    return (key, probe) => {
      if (probe === FIRST) return 1;
      if (probe === LAST) return -1;
      return dir * compareKeyValue(key, probe);
    };
  }
  return (key, probe) => {
    const k = key as unknown[];
    const p = probe as unknown[];
    for (let i = 0; i < directions.length; i++) {
      const b = p[i];
      if (b === FIRST) return 1;
      if (b === LAST) return -1;
      const c = compareKeyValue(k[i], b);
      if (c !== 0) return directions[i] < 0 ? -c : c;
    }
    return 0;
  };
}
