/**
 * Filter inputs (`StringFilterInput`, `ArticleFiltersInput`…) from the ONE operator table of the
 * query engine (src/query/operators.ts), and their translation into the REST `filters` object the
 * query engine compiles, so GraphQL and REST filter identically.
 */
import type { Registry, Schema } from '../../content-types/index.js';
import type { ValueOperator } from '../../query/operators.js';
import { VALUE_OPERATORS } from '../../query/operators.js';
import { graphqlAttributes, filterScalar, isWriteOnly } from './attribute-types.js';
import { filtersInputName, scalarFilterName } from './naming.js';
import { isRecord } from './values.js';

/** Strapi v4 GraphQL's operators, in its order; `$startsWithi`/`$endsWithi` are REST only. */
export const GRAPHQL_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$startsWith',
  '$endsWith',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$null',
  '$notNull',
  '$in',
  '$notIn',
  '$between',
] as const satisfies readonly ValueOperator[];

/** The scalar filter inputs Strapi defines. */
export const FILTERED_SCALARS = [
  'ID',
  'Boolean',
  'String',
  'Int',
  'Long',
  'Float',
  'Date',
  'Time',
  'DateTime',
  'JSON',
] as const;

/** `StringFilterInput`'s fields as SDL field configs: `{ and: '[String]', eq: 'String', null: 'Boolean', not: 'StringFilterInput' … }` */
export function scalarFilterFields(scalar: string): Record<string, string> {
  const fields: Record<string, string> = { and: `[${scalar}]`, or: `[${scalar}]`, not: scalarFilterName(scalar) };
  for (const op of GRAPHQL_OPERATORS) {
    const arity = VALUE_OPERATORS[op].arity;
    fields[op.slice(1)] = arity === 'flag' ? 'Boolean' : arity === 'list' || arity === 'pair' ? `[${scalar}]` : scalar;
  }
  return fields;
}

/** The filterable attributes of a schema, Strapi's order: id, attributes, system fields, `locale` last. */
export function filterableAttributes(schema: Schema): string[] {
  return graphqlAttributes(schema)
    .filter(([, attribute]) => !isWriteOnly(attribute) && attribute.type !== 'dynamiczone')
    .map(([name]) => name);
}

/** The filter input of one attribute: a scalar's `XFilterInput`, or the related schema's `YFiltersInput`. */
export function attributeFilterInput(
  schema: Schema,
  name: string,
  typeOf: (uid: string) => string | null,
): string | null {
  const attribute = schema.attributes[name];
  if (!attribute) return null;
  if (attribute.type === 'relation' || attribute.type === 'media') {
    const target = schema.relations[name]?.target;
    const type = target ? typeOf(target) : null;
    return type ? filtersInputName(type) : null;
  }
  if (attribute.type === 'component') {
    const type = typeOf(attribute.component);
    return type ? filtersInputName(type) : null;
  }
  const scalar = filterScalar(attribute);
  return scalar ? scalarFilterName(scalar) : null;
}

const LOGICAL: Record<string, string> = { and: '$and', or: '$or', not: '$not' };

/**
 * GraphQL `filters` → the REST `filters` object: `{ title: { containsi: 'x' }, and: [...] }` →
 * `{ title: { $containsi: 'x' }, $and: [...] }`, following relations and components.
 * An explicit `null` given for a logical operator, a relation, a component or an item of
 * `and`/`or` sets no condition, as in Strapi 4.26 (`{ author: null }` lists every entry).
 */
export function toRestFilters(registry: Registry, schema: Schema, filters: unknown): unknown {
  if (Array.isArray(filters))
    return filters.filter((item) => item !== null).map((item) => toRestFilters(registry, schema, item));
  if (!isRecord(filters)) return filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (value === null && isNestedFilterKey(schema, key)) continue;
    const logical = LOGICAL[key];
    if (logical) {
      out[logical] = toRestFilters(registry, schema, value);
      continue;
    }
    if (key === 'id') {
      out.id = toOperatorFilter(value);
      continue;
    }
    const attribute = schema.attributes[key];
    if (attribute?.type === 'relation' || attribute?.type === 'media') {
      const target = registry.schema(schema.relations[key]?.target ?? '');
      out[key] = target ? toRestFilters(registry, target, value) : value;
    } else if (attribute?.type === 'component') {
      const component = registry.schema(attribute.component);
      out[key] = component ? toRestFilters(registry, component, value) : value;
    } else {
      out[key] = toOperatorFilter(value);
    }
  }
  return out;
}

/** Whether `key` holds a filter object (a logical operator, a relation, a media or a component), not an operator. */
function isNestedFilterKey(schema: Schema, key: string): boolean {
  if (LOGICAL[key]) return true;
  const type = schema.attributes[key]?.type;
  return type === 'relation' || type === 'media' || type === 'component';
}

/** `{ eq: 1, not: { null: true }, or: [1, 2] }` → `{ $eq: 1, $not: { $null: true }, $or: [{ $eq: 1 }, { $eq: 2 }] }` */
function toOperatorFilter(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    if (op === 'not') out.$not = toOperatorFilter(operand);
    else if (op === 'and' || op === 'or')
      out[`$${op}`] = (Array.isArray(operand) ? operand : [operand]).map((v) => ({ $eq: v }));
    else out[`$${op}`] = operand;
  }
  return out;
}
