import type { RelationInfo } from '../../content-types/index.js';
import type { CastType } from '../cast-value.js';

/**
 * A filter validated against the content-types: the typed tree between the qs value and the
 * MongoDB stages. Paths are storage paths relative to the document the node is evaluated on.
 */
export type FilterNode = AndNode | OrNode | NotNode | ConditionNode | RelationNode | ElementNode;

export interface AndNode {
  kind: 'and';
  children: FilterNode[];
}
export interface OrNode {
  kind: 'or';
  children: FilterNode[];
}
export interface NotNode {
  kind: 'not';
  child: FilterNode;
}

/**
 * One comparison on a stored scalar. `op` is a positive operator after negation is pushed down
 * (negate.ts) — `negated` then says the condition is its SQL negation (NULL never matches).
 */
export interface ConditionNode {
  kind: 'condition';
  path: string;
  type: CastType;
  op: ConditionOperator;
  /** cast value(s): one scalar, a list for `in`, a pair for `between`, a boolean for `null` */
  value: unknown;
  negated: boolean;
}

export type ConditionOperator =
  | 'eq'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'between'
  | 'null'
  | 'eqi'
  | 'contains'
  | 'containsi'
  | 'startsWith'
  | 'startsWithi'
  | 'endsWith'
  | 'endsWithi';

/**
 * The truth of a condition that compares with nothing: `$in` of an empty list is knex's `IN ()`,
 * written `1 = 0` (false for every row), and `$notIn` of one (`negated`) is `1 = 1`: true for every
 * row, NULLs and the row of NULLs of a LEFT JOIN included. undefined for any other condition.
 */
export function constantTruth(node: ConditionNode): boolean | undefined {
  if (node.op !== 'in' || !Array.isArray(node.value) || node.value.length > 0) return undefined;
  return node.negated;
}

/** Entries related through `relation` (stored at `path`, or the inverse side): some related entry (or, when there is none, a row of nulls) matches `child`. */
export interface RelationNode {
  kind: 'relation';
  /** storage path of the relation field (a component prefix included) */
  path: string;
  /** true when an array sits on the way to `path` (a repeatable component) */
  throughArray: boolean;
  relation: RelationInfo;
  targetUid: string;
  targetCollection: string;
  child: FilterNode;
}

/** A repeatable component: some element matches `child` (paths in `child` are relative to the element). */
export interface ElementNode {
  kind: 'element';
  path: string;
  child: FilterNode;
}

/** Whether `node` or any node below it (through and/or/not, relations and elements) passes `test`. */
export function anyNode(node: FilterNode, test: (node: FilterNode) => boolean): boolean {
  if (test(node)) return true;
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some((child) => anyNode(child, test));
    case 'not':
    case 'element':
    case 'relation':
      return anyNode(node.child, test);
    case 'condition':
      return false;
  }
}
