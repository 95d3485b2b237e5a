import { constantTruth, type FilterNode } from './tree.js';

/**
 * Pushes every `$not` down to the conditions (negation normal form), with SQL's semantics, which
 * Strapi's answers follow: a negated comparison never matches NULL (`NOT (kind = 'news')` skips
 * entries without a kind), `NOT (x IS NULL)` is `x IS NOT NULL`, and through a relation or a
 * repeatable component the negation applies to the joined row (`$not: { author: { name } }` keeps
 * entries whose author has another name).
 */
export function pushNegations(node: FilterNode, negated = false): FilterNode {
  switch (node.kind) {
    case 'not':
      return pushNegations(node.child, !negated);
    case 'and':
    case 'or': {
      const children = node.children.map((child) => pushNegations(child, negated));
      const kind = negated ? (node.kind === 'and' ? 'or' : 'and') : node.kind;
      return { kind, children };
    }
    case 'condition':
      if (!negated) return node;
      if (node.op === 'null') return { ...node, value: node.value !== true };
      return { ...node, negated: !node.negated };
    case 'relation':
    case 'element':
      return { ...node, child: pushNegations(node.child, negated) };
  }
}

/**
 * Whether a row of NULLs matches `node` (in negation normal form): what a LEFT JOIN compares when
 * an entry has no related entry, so `filters[author][id][$null]=true` finds entries without an author.
 */
export function matchesNullRow(node: FilterNode): boolean {
  switch (node.kind) {
    case 'condition':
      return constantTruth(node) ?? (node.op === 'null' && node.value === true);
    case 'and':
      return node.children.every(matchesNullRow);
    case 'or':
      return node.children.some(matchesNullRow);
    case 'not':
      return !matchesNullRow(node.child);
    case 'relation':
    case 'element':
      return matchesNullRow(node.child);
  }
}
