import {
  isMorphTo,
  isPrivate,
  type Attribute,
  type Component,
  type ContentType,
  type Registry,
} from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { QueryAccess } from '../access.js';
import { castValue, isRawScalar, type CastType, type RawScalar } from '../cast-value.js';
import {
  VALUE_OPERATORS,
  isLogicalOperator,
  isValueOperator,
  looksLikeOperator,
  type ValueOperator,
} from '../operators.js';
import { isPlainObject, nestedDeeperThan } from '../qs-values.js';
import { anyNode, type ConditionNode, type ConditionOperator, type FilterNode } from './tree.js';
import { acceptsNumberText } from './number-text.js';

/**
 * Reads the qs value of `filters` against the content-types into a FilterNode tree (Strapi's
 * `processWhere` half): every key must be an attribute the caller may filter on or a known
 * operator, every value must have the shape its operator expects. Never mutates `filters`.
 */
export interface ParseContext {
  registry: Registry;
  access: QueryAccess;
}

type Schema = ContentType | Component;

/**
 * How deep a `filters` value may nest. The query string stops at 20 levels anyway; GraphQL filters
 * could go on, but past this a MongoDB server refuses the compiled query as nested too deeply.
 */
export const MAX_FILTER_DEPTH = 32;

/** undefined when there is nothing to filter on. */
export function parseFilters(ctx: ParseContext, schema: Schema, filters: unknown): FilterNode | undefined {
  if (filters === undefined || filters === null || filters === '') return undefined;
  if (!isPlainObject(filters) && !Array.isArray(filters))
    throw new ValidationError('Invalid filters: expected an object', {});
  if (nestedDeeperThan(filters, MAX_FILTER_DEPTH))
    throw new ValidationError(`Invalid filters: nested over ${MAX_FILTER_DEPTH} levels deep`, {});
  const node = parseEntity(ctx, schema, filters, { prefix: '', operatorsOnId: false, throughArray: false });
  return isNoCondition(node) ? undefined : node;
}

interface EntityScope {
  /** storage path of the object being filtered (`seo.` inside a component, '' for an entry) */
  prefix: string;
  /** inside a relation or a component: a value operator at this level applies to its id (`filters[author][$null]=true`) */
  operatorsOnId: boolean;
  /** a repeatable component lies on the way from the entry to `prefix` */
  throughArray: boolean;
}

function parseEntity(ctx: ParseContext, schema: Schema, value: unknown, scope: EntityScope): FilterNode {
  const list = listOf(value);
  if (list) return and(list.map((item) => parseEntity(ctx, schema, item, scope)));
  if (!isPlainObject(value)) throw new ValidationError('Invalid filters: expected an object', {});
  const children: FilterNode[] = [];
  for (const [key, nested] of Object.entries(value)) {
    if (key === '$and' || key === '$or') {
      const items = listOf(nested);
      // an object of groups (qs past its array limit, `$or[a]`): Strapi refuses its first key that
      // is no attribute or operator (`Invalid parameter 0`); one holding only attributes is a 500 there
      if (!items && isPlainObject(nested)) parseEntity(ctx, schema, nested, scope);
      if (!items) throw new ValidationError(`Invalid parameter ${key}: expected an array`, {});
      const parsed = items.map((item) => parseEntity(ctx, schema, item, scope));
      // an empty group is no condition (Strapi's query builder drops it), `$or` included
      children.push(key === '$and' || parsed.length === 0 ? and(parsed) : { kind: 'or', children: parsed });
    } else if (key === '$not') {
      // Strapi's query builder fails on a `$not` inside a relation or a component (a 500)
      if (scope.operatorsOnId)
        throw new ValidationError('Invalid parameter $not: not allowed inside a relation or a component', {});
      const child = parseEntity(ctx, schema, nested, scope);
      // the negation of no condition is no condition, as Strapi's query builder drops it
      if (!isNoCondition(child)) children.push({ kind: 'not', child });
    } else if (scope.operatorsOnId && isValueOperator(key)) {
      const idPath = `${scope.prefix}${schema.modelType === 'component' ? 'id' : '_id'}`;
      children.push(parseValue({ [key]: nested }, { path: idPath, type: 'id', key: 'id' }));
    } else if (looksLikeOperator(key)) {
      throw invalidParameter(key);
    } else {
      children.push(parseAttribute(ctx, schema, key, nested, scope));
    }
  }
  return and(children);
}

function parseAttribute(
  ctx: ParseContext,
  schema: Schema,
  key: string,
  value: unknown,
  scope: EntityScope,
): FilterNode {
  const { prefix } = scope;
  if (key === 'id') {
    return parseValue(value, { path: `${prefix}${schema.modelType === 'component' ? 'id' : '_id'}`, type: 'id', key });
  }
  const attribute: Attribute | undefined = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
  const morphColumn = attribute || !ctx.access.readsPrivate ? undefined : morphToOneColumn(schema, key);
  if (morphColumn) return parseValue(value, { ...morphColumn, path: `${prefix}${morphColumn.path}` });
  if (!attribute || (isPrivate(attribute) && !ctx.access.readsPrivate)) throw invalidParameter(key);
  const path = `${prefix}${key}`;
  switch (attribute.type) {
    case 'media':
    case 'dynamiczone':
      throw invalidParameter(key);
    case 'relation':
      return parseRelation(ctx, schema, key, value, scope);
    case 'component': {
      const component = ctx.registry.component(attribute.component);
      if (!component) throw invalidParameter(key);
      if (!isPlainObject(value)) throw invalidParameter(key);
      checkJoinedKeys(value);
      if (!attribute.repeatable)
        return parseEntity(ctx, component, value, { ...scope, prefix: `${path}.`, operatorsOnId: true });
      const element = parseEntity(ctx, component, value, { prefix: '', operatorsOnId: true, throughArray: false });
      if (isNoCondition(element)) return element;
      // relations need a $lookup, which cannot run inside $elemMatch: read them through the array instead
      if (anyNode(element, (node) => node.kind === 'relation'))
        return parseEntity(ctx, component, value, { prefix: `${path}.`, operatorsOnId: true, throughArray: true });
      return { kind: 'element', path, child: element };
    }
    default:
      return parseValue(value, { path, type: attribute.type, key });
  }
}

/**
 * Strapi 4.26 stores a morphToOne in the columns `target_id` and `target_type`, and app code
 * filters on them (`strapi.db.query(uid).findMany({ where: { target_id, target_type } })`, as
 * strapi-plugin-todo does): here they are the stored link's `id` and `__type`.
 */
function morphToOneColumn(schema: Schema, key: string): Field | undefined {
  if (key !== 'target_id' && key !== 'target_type') return undefined;
  const name = Object.keys(schema.attributes).find((attribute) => {
    const declared = schema.attributes[attribute];
    return isMorphTo(declared) && declared.relation === 'morphToOne';
  });
  if (name === undefined) return undefined;
  return key === 'target_id'
    ? { path: `${name}.id`, type: 'id', key }
    : { path: `${name}.__type`, type: 'string', key };
}

function parseRelation(ctx: ParseContext, schema: Schema, key: string, value: unknown, scope: EntityScope): FilterNode {
  const relation = schema.relations[key];
  if (!relation || relation.media) throw invalidParameter(key);
  const target = ctx.registry.contentType(relation.target);
  if (!target || !ctx.access.canRead(target.uid)) throw invalidParameter(key);
  // `filters[author]=2`, `filters[author][0]=1&…`: ids of the related entries
  if (isPlainObject(value) && !listOf(value)) checkJoinedKeys(value);
  const child =
    isPlainObject(value) && !listOf(value)
      ? parseEntity(ctx, target, value, { prefix: '', operatorsOnId: true, throughArray: false })
      : parseValue(value, { path: '_id', type: 'id', key: 'id' });
  // what Strapi's sanitizer emptied is removed with its relation (`$not: { category: { id: { $in: [] } } }`)
  if (isNoCondition(child)) return child;
  return {
    kind: 'relation',
    path: `${scope.prefix}${key}`,
    throughArray: scope.throughArray,
    relation,
    targetUid: target.uid,
    targetCollection: target.collectionName,
    child,
  };
}

/**
 * The object under a relation or a component (both joined rows in Strapi) holds either attributes
 * or one operator on the joined id; Strapi's query builder fails (500) otherwise, a 400 here.
 */
function checkJoinedKeys(value: Record<string, unknown>): void {
  const keys = Object.keys(value);
  const operators = keys.filter(looksLikeOperator);
  if (operators.length > 0 && operators.length !== keys.length)
    throw new ValidationError('Operator and non-operator keys cannot be mixed in a relation where clause', {});
  if (operators.length > 1)
    throw new ValidationError(
      `Only one operator key is allowed in a relation where clause, but found: ${operators.join(',')}`,
      {},
    );
}

interface Field {
  path: string;
  type: CastType;
  key: string;
}

/** The value of one attribute: a scalar (implicit `$eq`), a list (implicit `$in`) or an object of operators. */
function parseValue(value: unknown, field: Field): FilterNode {
  if (isRawScalar(value)) return condition(field, '$eq', value);
  if (listOf(value)) return condition(field, '$in', value);
  if (!isPlainObject(value)) throw invalidParameter(field.key);
  const children: FilterNode[] = [];
  for (const [key, nested] of Object.entries(value)) {
    // Strapi's filter sanitizer walks into the operators of `id` (not into an attribute's) and
    // removes the empty ones: `id: { $in: [] }` is no condition, `views: { $in: [] }` matches nothing
    if (field.type === 'id' && isEmptyList(nested)) continue;
    if (isValueOperator(key)) {
      children.push(condition(field, key, nested));
    } else if (key === '$not') {
      const items = listOf(nested);
      if (items) {
        children.push({ kind: 'or', children: items.map((item) => ({ kind: 'not', child: parseValue(item, field) })) });
        continue;
      }
      const negated = parseValue(nested, field);
      // the negation of no condition is no condition, as on the entry level
      if (!isNoCondition(negated)) children.push({ kind: 'not', child: negated });
    } else if (key === '$and' || key === '$or') {
      // Strapi has no attribute-level group (its query builder fails on it: a 500)
      throw new ValidationError(`Undefined attribute level operator ${key}`, {});
    } else {
      // Strapi's validator walks into `id` (no attribute) and names the key; under an attribute it drops it
      const named = field.type === 'id' || isLogicalOperator(key) || looksLikeOperator(key);
      throw invalidParameter(named ? key : `${field.key}.${key}`);
    }
  }
  return and(children);
}

/**
 * Types stored as strings, where text operators apply; `json` and `blocks` are compared as their
 * JSON text, as Strapi stores them. Numbers, booleans and date-times take them on their SQLite text (number-text.ts).
 */
const TEXT_TYPES = new Set<CastType>([
  'string',
  'text',
  'richtext',
  'enumeration',
  'email',
  'uid',
  'date',
  'time',
  'json',
  'blocks',
]);

const OPERATOR_NODES: Record<ValueOperator, { op: ConditionOperator; negated: boolean }> = {
  $eq: { op: 'eq', negated: false },
  $ne: { op: 'eq', negated: true },
  $eqi: { op: 'eqi', negated: false },
  $nei: { op: 'eqi', negated: true },
  $lt: { op: 'lt', negated: false },
  $lte: { op: 'lte', negated: false },
  $gt: { op: 'gt', negated: false },
  $gte: { op: 'gte', negated: false },
  $in: { op: 'in', negated: false },
  $notIn: { op: 'in', negated: true },
  $contains: { op: 'contains', negated: false },
  $notContains: { op: 'contains', negated: true },
  $containsi: { op: 'containsi', negated: false },
  $notContainsi: { op: 'containsi', negated: true },
  $startsWith: { op: 'startsWith', negated: false },
  $startsWithi: { op: 'startsWithi', negated: false },
  $endsWith: { op: 'endsWith', negated: false },
  $endsWithi: { op: 'endsWithi', negated: false },
  $null: { op: 'null', negated: false },
  $notNull: { op: 'null', negated: false },
  $between: { op: 'between', negated: false },
};

/**
 * One operator on one attribute. An operator that takes one value, given a list of values
 * (`filters[rank][$gt][0]=12&filters[rank][$gt][1]=56`), is the OR of the operator on each value,
 * as Strapi's query builder applies it (`$in`, `$notIn` and `$between` take the list itself).
 */
function condition(field: Field, operator: ValueOperator, raw: unknown): FilterNode {
  const arity = VALUE_OPERATORS[operator].arity;
  const items = arity === 'scalar' || arity === 'text' ? listOf(raw) : undefined;
  if (items) return { kind: 'or', children: items.map((item) => singleCondition(field, operator, item)) };
  return singleCondition(field, operator, raw);
}

function singleCondition(field: Field, operator: ValueOperator, raw: unknown): ConditionNode {
  const { op, negated } = OPERATOR_NODES[operator];
  const base = { kind: 'condition' as const, path: field.path, type: field.type, op, negated };
  switch (VALUE_OPERATORS[operator].arity) {
    case 'scalar': {
      const value = scalar(raw, field, operator);
      if (value === null) {
        if (op !== 'eq') throw new ValidationError(`Invalid value for ${operator} on ${field.key}`, {});
        return { ...base, op: 'null', value: !negated, negated: false };
      }
      return { ...base, value: castValue(field.type, value, field.key) };
    }
    case 'text': {
      if (!TEXT_TYPES.has(field.type) && !acceptsNumberText(field.type))
        throw new ValidationError(`Operator ${operator} is not supported on ${field.key}`, {});
      const value = scalar(raw, field, operator);
      if (value === null) throw new ValidationError(`Invalid value for ${operator} on ${field.key}`, {});
      return { ...base, value: value instanceof Date ? value.toISOString() : String(value) };
    }
    case 'list': {
      const [firstKey] = isPlainObject(raw) ? Object.keys(raw) : [];
      if (firstKey !== undefined) throw invalidParameter(firstKey);
      const items = listOf(raw) ?? [raw];
      return { ...base, value: items.map((item) => castValue(field.type, scalar(item, field, operator), field.key)) };
    }
    case 'pair': {
      const items = listOf(raw);
      if (!items || items.length !== 2) throw new ValidationError(`${operator} on ${field.key} expects two values`, {});
      const bounds = items.map((item) => scalar(item, field, operator));
      if (bounds.includes(null)) throw new ValidationError(`${operator} on ${field.key} expects two values`, {});
      return { ...base, value: bounds.map((bound) => castValue(field.type, bound, field.key)) };
    }
    case 'flag': {
      const flag = readFlag(raw);
      return { ...base, value: operator === '$null' ? flag : !flag };
    }
  }
}

function scalar(raw: unknown, field: Field, operator: string): RawScalar {
  if (!isRawScalar(raw))
    throw new ValidationError(`Invalid value for ${operator} on ${field.key}: expected a single value`, {});
  return raw;
}

/**
 * The value of `$null` / `$notNull`, read as Strapi does (a forced boolean cast): `true`, `t`, `1`
 * are true, `false`, `f`, `0` and the empty string are false, any other text, list or object is true.
 */
function readFlag(raw: unknown): boolean {
  if (raw === 'true' || raw === 't' || raw === '1' || raw === 1) return true;
  if (raw === 'false' || raw === 'f' || raw === '0' || raw === 0) return false;
  return Boolean(raw);
}

/**
 * A list of the filters: an array only. An object with index keys (what qs builds past its array
 * limit of 100, `filters[$or][150][id]=2`) is read as an object, so its keys are refused as Strapi
 * 4.26 refuses them (`Invalid parameter 0`).
 */
function listOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

function isNoCondition(node: FilterNode): boolean {
  return node.kind === 'and' && node.children.length === 0;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isPlainObject(value) && Object.keys(value).length === 0;
}

function and(children: FilterNode[]): FilterNode {
  const flat = children.flatMap((child) => (child.kind === 'and' ? child.children : [child]));
  return flat.length === 1 && flat[0] ? flat[0] : { kind: 'and', children: flat };
}

function invalidParameter(key: string): ValidationError {
  return new ValidationError(`Invalid parameter ${key}`, {});
}
