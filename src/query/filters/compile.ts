import { ValidationError } from '../../errors/index.js';
import { matchesNullRow } from './negate.js';
import { isJsonText, jsonTextExpression } from './json-text.js';
import { isNumberTextCondition, numberTextExpression, readsLoweredText } from './number-text.js';
import { relationJoin } from './relation-join.js';
import { anyNode, constantTruth, type ConditionNode, type FilterNode, type RelationNode } from './tree.js';

export type PipelineStage = Record<string, unknown>;
type Query = Record<string, unknown>;

/** Names of the temporary fields that hold `$lookup` results, unique within one compilation. */
export class TempFields {
  private next = 0;
  readonly names: string[] = [];

  constructor(private readonly prefix = '__filter') {}

  create(): string {
    const name = `${this.prefix}${this.next++}`;
    this.names.push(name);
    return name;
  }
}

/**
 * Stages keeping the documents that match `node` (in negation normal form, see negate.ts):
 * the conditions that need no other collection first, in one `$match` an index can serve; then
 * one `$lookup` per deep filter and a `$match` on their results. The caller removes `temps`.
 */
export function compileNode(node: FilterNode, temps: TempFields, resolved?: ResolvedRelations): PipelineStage[] {
  const parts = node.kind === 'and' ? node.children : [node];
  const local: Query[] = [];
  const deep: Query[] = [];
  const lookups: PipelineStage[] = [];
  for (const part of parts) {
    const partLookups: PipelineStage[] = [];
    const query = toQuery(part, { temps, lookups: partLookups, resolved });
    if (partLookups.length === 0) {
      local.push(query);
    } else {
      lookups.push(...partLookups);
      deep.push(query);
    }
  }
  const stages: PipelineStage[] = [];
  if (local.length > 0) stages.push({ $match: and(local) });
  stages.push(...lookups);
  if (deep.length > 0) stages.push({ $match: and(deep) });
  return stages;
}

/** Relation filters already answered by a query on the related collection (push-down.ts): the condition on this side. */
export type ResolvedRelations = Map<RelationNode, Query>;

interface QueryScope {
  temps: TempFields;
  /** `$lookup` stages the query needs before it can be evaluated */
  lookups: PipelineStage[];
  resolved?: ResolvedRelations;
}

function toQuery(node: FilterNode, scope: QueryScope): Query {
  switch (node.kind) {
    case 'and':
      return and(node.children.map((child) => toQuery(child, scope)));
    case 'or':
      return or(node.children.map((child) => toQuery(child, scope)));
    case 'not':
      return { $nor: [toQuery(node.child, scope)] };
    case 'condition':
      return conditionQuery(node);
    case 'element': {
      if (holdsExprCondition(node.child))
        throw new ValidationError(
          'Text operators on a json, number or boolean attribute inside a repeatable component are not supported',
          {},
        );
      const some = { [node.path]: { $elemMatch: toQuery(node.child, scope) } };
      return matchesNullRow(node.child) ? or([some, { [`${node.path}.0`]: { $exists: false } }]) : some;
    }
    case 'relation':
      return relationQuery(node, scope);
  }
}

/**
 * A deep filter: ids compared in place when only the related ids are filtered, the condition
 * found by a query on the related collection when there is one (push-down.ts), otherwise a `$lookup`.
 */
function relationQuery(node: RelationNode, scope: QueryScope): Query {
  const { relation, path } = node;
  const stored = relation.stored && !node.throughArray;
  const inPlace = inPlaceRelationQuery(node);
  if (inPlace) return inPlace;
  const resolved = scope.resolved?.get(node);
  if (resolved) return resolved;

  const join = relationJoin(relation, path, node.throughArray);
  const temp = scope.temps.create();
  const nested = compileNode(node.child, scope.temps, scope.resolved);
  const [first, ...rest] = nested;
  const firstMatch = first && isMatch(first) ? first.$match : undefined;
  const pipeline: PipelineStage[] = [
    { $match: { $expr: join.expr, ...(firstMatch ?? {}) } },
    ...(firstMatch ? rest : nested),
    { $limit: 1 },
    { $project: { _id: 1 } },
  ];
  scope.lookups.push({ $lookup: { from: node.targetCollection, let: join.let, pipeline, as: temp } });
  const some: Query = { [temp]: { $ne: [] } };
  if (!matchesNullRow(node.child)) return some;

  // a LEFT JOIN also compares a row of NULLs when nothing is related
  if (stored && !relation.multiple) return or([some, { [path]: null }]);
  if (stored) return or([some, { [`${path}.0`]: { $exists: false } }]);
  const any = scope.temps.create();
  scope.lookups.push({
    $lookup: {
      from: node.targetCollection,
      let: join.let,
      pipeline: [{ $match: { $expr: join.expr } }, { $limit: 1 }, { $project: { _id: 1 } }],
      as: any,
    },
  });
  return or([some, { [any]: { $size: 0 } }]);
}

/** The query of a deep filter that only compares the related ids: on the stored field itself, no join. */
export function inPlaceRelationQuery(node: RelationNode): Query | undefined {
  const { relation, path } = node;
  const stored = relation.stored && !node.throughArray;
  if (stored && !relation.multiple && onlyIdConditions(node.child)) {
    return toQuery(renameIdPath(node.child, path), { temps: new TempFields(), lookups: [] });
  }
  if (stored && relation.multiple && node.child.kind === 'condition' && node.child.path === '_id') {
    return toManyIdQuery(node.child, path);
  }
  return undefined;
}

/** Conditions compiled to `$expr` (json and number text), which MongoDB does not accept inside `$elemMatch`. */
function holdsExprCondition(node: FilterNode): boolean {
  return anyNode(
    node,
    (item) =>
      item.kind === 'condition' && ((isJsonText(item.type) && item.op !== 'null') || isNumberTextCondition(item)),
  );
}

function isMatch(stage: PipelineStage): stage is { $match: Query } {
  return Object.hasOwn(stage, '$match');
}

function onlyIdConditions(node: FilterNode): boolean {
  switch (node.kind) {
    case 'condition':
      return node.path === '_id';
    case 'and':
    case 'or':
      return node.children.every(onlyIdConditions);
    case 'not':
      return onlyIdConditions(node.child);
    default:
      return false;
  }
}

function renameIdPath(node: FilterNode, path: string): FilterNode {
  switch (node.kind) {
    case 'condition':
      return { ...node, path };
    case 'and':
    case 'or':
      return { ...node, children: node.children.map((child) => renameIdPath(child, path)) };
    case 'not':
      return { ...node, child: renameIdPath(node.child, path) };
    default:
      return node;
  }
}

/** On an array of ids, MongoDB's "some element" reading equals the join's only for these. */
function toManyIdQuery(node: ConditionNode, path: string): Query | undefined {
  if (node.op === 'null') return { [`${path}.0`]: { $exists: node.value !== true } };
  if (node.negated || !['eq', 'in', 'lt', 'lte', 'gt', 'gte'].includes(node.op)) return undefined;
  return conditionQuery({ ...node, path });
}

const NEGATED_COMPARISON = { lt: '$gte', lte: '$gt', gt: '$lte', gte: '$lt' } as const;

/** One condition as a MongoDB query; values are cast scalars, always behind an operator so none is read as one. */
export function conditionQuery(node: ConditionNode): Query {
  const { path, value, negated } = node;
  const constant = constantTruth(node);
  // `$in: []` is a query no value matches (`$expr` is refused inside `$elemMatch`)
  if (constant !== undefined) return constant ? {} : { [path]: { $in: [] } };
  if (isJsonText(node.type) && node.op !== 'null') return { $expr: jsonTextCondition(node) };
  if (isNumberTextCondition(node)) return { $expr: numberTextCondition(node) };
  switch (node.op) {
    case 'null':
      if (isJsonText(node.type)) return jsonNullQuery(path, value === true);
      return { [path]: value === true ? { $eq: null } : { $ne: null } };
    case 'eq':
      return { [path]: negated ? { $nin: [value, null] } : { $eq: value } };
    case 'in': {
      const values = Array.isArray(value) ? value : [value];
      return { [path]: negated ? { $nin: [...values, null] } : { $in: values } };
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return { [path]: { [negated ? NEGATED_COMPARISON[node.op] : `$${node.op}`]: value } };
    case 'between': {
      const [low, high] = Array.isArray(value) ? value : [];
      return negated
        ? or([{ [path]: { $lt: low } }, { [path]: { $gt: high } }])
        : { [path]: { $gte: low, $lte: high } };
    }
    default: {
      const pattern = textPattern(node.op, String(value));
      return { [path]: negated ? { $not: pattern, $ne: null } : { $regex: pattern } };
    }
  }
}

/**
 * A condition on a JSON attribute's text (see json-text.ts): the text is NULL for a null value,
 * and NULL never matches, negated or not (SQL). `value` is text: the operand of a text operator,
 * or the JSON text of the value for comparisons.
 */
function jsonTextCondition(node: ConditionNode): Query {
  const text = '$$json';
  const compare = (op: string, operand: unknown) => ({ [op]: [text, operand] });
  const values = Array.isArray(node.value) ? node.value : [node.value];
  const [low, high] = values;
  const positive: Record<ConditionNode['op'], () => Query> = {
    eq: () => compare('$eq', node.value),
    in: () => ({ $in: [text, values] }),
    lt: () => compare('$lt', node.value),
    lte: () => compare('$lte', node.value),
    gt: () => compare('$gt', node.value),
    gte: () => compare('$gte', node.value),
    between: () => ({ $and: [compare('$gte', low), compare('$lte', high)] }),
    null: () => ({ $eq: [text, null] }),
    eqi: () => textMatch(node, text),
    contains: () => textMatch(node, text),
    containsi: () => textMatch(node, text),
    startsWith: () => textMatch(node, text),
    startsWithi: () => textMatch(node, text),
    endsWith: () => textMatch(node, text),
    endsWithi: () => textMatch(node, text),
  };
  const matches = positive[node.op]();
  return {
    $let: {
      vars: { json: jsonTextExpression(`$${node.path}`) },
      in: { $cond: [{ $eq: [text, null] }, false, node.negated ? { $not: [matches] } : matches] },
    },
  };
}

/** A text operator on a number or boolean column, matched against its SQLite text (number-text.ts). */
function numberTextCondition(node: ConditionNode): Query {
  const text = '$$text';
  const matches = textMatch(node, text);
  return {
    $let: {
      vars: { text: numberTextExpression(node.type, `$${node.path}`, readsLoweredText(node)) },
      in: { $cond: [{ $eq: [text, null] }, false, node.negated ? { $not: [matches] } : matches] },
    },
  };
}

function textMatch(node: ConditionNode, input: string): Query {
  return { $regexMatch: { input, regex: textPattern(node.op, String(node.value)) } };
}

/**
 * A JSON attribute may hold an array, and `{ field: null }` matches an array with a null element:
 * only the whole value counts (`["x", null]` is not null, case 195).
 */
function jsonNullQuery(path: string, isNull: boolean): Query {
  return isNull
    ? { $and: [{ [path]: { $eq: null } }, { [path]: { $not: { $type: 'array' } } }] }
    : { $or: [{ [path]: { $ne: null } }, { [path]: { $type: 'array' } }] };
}

/**
 * `%`, `_`, `*` and every regular-expression character match literally (Strapi's LIKE reads `%`
 * and `_` as wildcards; docs/strapi-deviations.md). A NUL is written `\x00`: BSON stores a pattern
 * as a C string, so a raw NUL cannot be sent at all.
 */
export function textPattern(op: ConditionNode['op'], text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&').replaceAll('\0', '\\x00');
  const caseInsensitive = op.endsWith('i');
  const base = caseInsensitive ? op.slice(0, -1) : op;
  const source =
    base === 'eq'
      ? `^${escaped}$`
      : base === 'startsWith'
        ? `^${escaped}`
        : base === 'endsWith'
          ? `${escaped}$`
          : escaped;
  return new RegExp(source, caseInsensitive ? 'i' : '');
}

function and(queries: Query[]): Query {
  const nonEmpty = queries.filter((query) => Object.keys(query).length > 0);
  if (nonEmpty.length === 0) return {};
  return nonEmpty.length === 1 && nonEmpty[0] ? nonEmpty[0] : { $and: nonEmpty };
}

function or(queries: Query[]): Query {
  if (queries.length === 0) return { $nor: [{}] };
  if (queries.some((query) => Object.keys(query).length === 0)) return {};
  return queries.length === 1 && queries[0] ? queries[0] : { $or: queries };
}
