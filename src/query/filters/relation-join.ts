import type { RelationInfo } from '../../content-types/index.js';

/**
 * The `let` and the `$expr` of a `$lookup` sub-pipeline that selects the entries related through
 * `relation`, stored at `path` of the outer document (docs/ARCHITECTURE.md, storage layout).
 * Used by deep filters and by sorting on a relation's field.
 */
export interface RelationJoin {
  let: Record<string, unknown>;
  /** an aggregation expression evaluated on the related entry */
  expr: Record<string, unknown>;
}

export function relationJoin(relation: RelationInfo, path: string, throughArray: boolean): RelationJoin {
  if (relation.localizations) {
    return {
      let: { group: '$localeGroup', self: '$_id' },
      expr: { $and: [{ $eq: ['$localeGroup', '$$group'] }, { $ne: ['$_id', '$$self'] }] },
    };
  }
  if (relation.inverse) {
    const field = `$${relation.inverse.field}`;
    return {
      let: { self: '$_id' },
      expr: relation.inverse.multiple ? { $in: ['$$self', arrayOrEmpty(field)] } : { $eq: [field, '$$self'] },
    };
  }
  if (!relation.multiple && !throughArray) {
    return { let: { ref: `$${path}` }, expr: { $eq: ['$_id', '$$ref'] } };
  }
  const ids = relation.multiple && throughArray ? flatten(`$${path}`) : arrayOrEmpty(`$${path}`);
  return { let: { refs: ids }, expr: { $in: ['$_id', '$$refs'] } };
}

function arrayOrEmpty(expression: unknown): Record<string, unknown> {
  return { $cond: [{ $isArray: [expression] }, expression, []] };
}

/** `[[1, 2], [3]]` → `[1, 2, 3]`: to-many ids read through a repeatable component. */
function flatten(expression: string): Record<string, unknown> {
  return {
    $reduce: {
      input: arrayOrEmpty(expression),
      initialValue: [],
      in: { $concatArrays: ['$$value', { $cond: [{ $isArray: ['$$this'] }, '$$this', ['$$this']] }] },
    },
  };
}
