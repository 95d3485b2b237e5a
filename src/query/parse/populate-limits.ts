import { ValidationError } from '../../errors/index.js';

/**
 * How big one request's populate tree may be. Depth alone does not bound it: a `*` at each of
 * ten levels of a wide schema, or hundreds of sibling paths, stay shallow but put thousands of
 * `$lookup`s in one aggregation, each run once per entry of the level above.
 */
export interface PopulateLimits {
  /** nested levels: `populate=a` is 1; `a.b`, `[a][populate][b]` and `[zone][on][c][populate][b]` are 2 */
  maxDepth: number;
  /** relations and media populated in the whole tree */
  maxRelations: number;
}

/**
 * Measures a populate tree while it is parsed and refuses it (400) as soon as it passes a limit,
 * before the rest of it is read: a populate string nested thousands of levels deep would
 * otherwise overflow the parser's stack.
 */
export class PopulateGuard {
  private relations = 0;

  constructor(private readonly limits: PopulateLimits) {}

  /** The depth of the level under one at `depth` (the top level's parent is 0). */
  nextLevel(depth: number, param: string): number {
    const max = this.limits.maxDepth;
    if (depth >= max)
      throw new ValidationError(`Invalid parameter ${param}: populate may be nested at most ${levels(max)} deep`, {
        maxPopulateDepth: max,
      });
    return depth + 1;
  }

  /** Counts one populated relation (or media). */
  relation(param: string): void {
    const max = this.limits.maxRelations;
    this.relations += 1;
    if (this.relations > max)
      throw new ValidationError(
        `Invalid parameter ${param}: at most ${max} relations may be populated in one request`,
        { maxPopulateRelations: max },
      );
  }
}

function levels(n: number): string {
  return n === 1 ? '1 level' : `${n} levels`;
}
