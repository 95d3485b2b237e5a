import { compileNode, inPlaceRelationQuery, TempFields, type ResolvedRelations } from './compile.js';
import { matchesNullRow } from './negate.js';
import type { FilterNode, RelationNode } from './tree.js';

type Query = Record<string, unknown>;

/** What pushing relation filters down asks of the database: one index-served query per relation filter. */
export interface RelatedEntries {
  /** `_id`s of the entries of content-type `uid` matching `match` */
  ids(uid: string, match: Query): Promise<unknown[]>;
  /** distinct values of `field` (array elements one by one) in the entries of `uid` matching `match` */
  values(uid: string, field: string, match: Query): Promise<unknown[]>;
}

/**
 * Answers the relation filters of a tree (in negation normal form) on the related collections
 * first, innermost first, so that the entries are then filtered by a condition on their own
 * fields that an index serves — `{ category: { $in: [ids] } }` for an owning side,
 * `{ _id: { $in: [owners] } }` for an inverse side — instead of a `$lookup` per entry. One query
 * per relation filter, whatever the number of entries. Left as `$lookup`s (the map has no entry):
 * ids compared in place (no query needed), `localizations`, and the LEFT JOIN cases where an
 * entry without any related entry matches too, except on a stored to-one or to-many field.
 */
export async function resolveRelations(root: FilterNode, related: RelatedEntries): Promise<ResolvedRelations> {
  const resolved: ResolvedRelations = new Map();
  await visit(root, related, resolved);
  return resolved;
}

/** Resolves the relation filters under `node`; true when all of them were (the subtree needs no join). */
async function visit(node: FilterNode, related: RelatedEntries, resolved: ResolvedRelations): Promise<boolean> {
  switch (node.kind) {
    case 'condition':
      return true;
    case 'and':
    case 'or': {
      const done = await Promise.all(node.children.map((child) => visit(child, related, resolved)));
      return done.every(Boolean);
    }
    case 'not':
    case 'element':
      return visit(node.child, related, resolved);
    case 'relation': {
      if (inPlaceRelationQuery(node)) return true;
      const childDone = await visit(node.child, related, resolved);
      if (!childDone) return false;
      const query = await resolveOne(node, related, resolved);
      if (!query) return false;
      resolved.set(node, query);
      return true;
    }
  }
}

async function resolveOne(
  node: RelationNode,
  related: RelatedEntries,
  resolved: ResolvedRelations,
): Promise<Query | undefined> {
  const { relation, path } = node;
  if (relation.localizations) return undefined;
  const nullRow = matchesNullRow(node.child);
  const stored = relation.stored && !node.throughArray;
  if (relation.stored) {
    const match = childMatch(node, resolved);
    if (!match || (nullRow && !stored)) return undefined;
    const ids = await related.ids(node.targetUid, match);
    const some = { [path]: { $in: ids } };
    if (!nullRow) return some;
    // a LEFT JOIN also compares a row of NULLs when nothing is related
    return { $or: [some, relation.multiple ? { [`${path}.0`]: { $exists: false } } : { [path]: null }] };
  }
  const match = childMatch(node, resolved);
  if (!relation.inverse || nullRow || !match) return undefined;
  const owners = await related.values(node.targetUid, relation.inverse.field, match);
  return { _id: { $in: owners.filter((id) => id !== null && !Array.isArray(id)) } };
}

/** The related side's condition as one `$match` (its own relation filters already resolved). */
function childMatch(node: RelationNode, resolved: ResolvedRelations): Query | undefined {
  const stages = compileNode(node.child, new TempFields(), resolved);
  if (stages.length === 0) return {};
  const [stage] = stages;
  return stages.length === 1 && stage && '$match' in stage ? (stage.$match as Query) : undefined;
}
