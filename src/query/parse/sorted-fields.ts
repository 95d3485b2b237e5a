import { isScalar, type Component, type ContentType } from '../../content-types/index.js';
import { MAX_FILTER_DEPTH } from '../filters/parse.js';
import { isLogicalOperator } from '../operators.js';
import { isPlainObject, asList } from '../qs-values.js';
import { parseSort } from '../sort/parse.js';

type Schema = ContentType | Component;

/**
 * `fields` with the entry's own scalar attributes a (valid) `sort` names, those first (Strapi's
 * order): Strapi selects them with the fields asked for, and answers them, wherever its query
 * joins (a populate's, or a list's that filters or sorts through a relation or a component).
 */
export function withSortedFields(schema: Schema, fields: readonly string[], sort: unknown): readonly string[] {
  const sorted = parseSort(sort)
    .map((key) => key.path)
    .filter((path) => path.length === 1 && path[0] !== 'id')
    .map((path) => path[0] ?? '')
    .filter((name) => {
      const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
      return attribute !== undefined && isScalar(attribute);
    });
  return [...new Set([...sorted, ...fields])];
}

/** Whether a list's query joins other tables in Strapi's SQL: a sort or a filter through a relation or a component. */
export function joinsTables(schema: Schema, filters: unknown, sort: unknown): boolean {
  if (sort !== undefined && parseSort(sort).some((key) => key.path.length > 1)) return true;
  return filtersJoin(schema, filters, 0);
}

const JOINED_TYPES = new Set(['relation', 'component', 'media']);

function filtersJoin(schema: Schema, filters: unknown, depth: number): boolean {
  if (depth > MAX_FILTER_DEPTH) return false;
  const list = asList(filters);
  if (list) return list.some((item) => filtersJoin(schema, item, depth + 1));
  if (!isPlainObject(filters)) return false;
  return Object.entries(filters).some(([key, value]) => {
    if (isLogicalOperator(key)) return filtersJoin(schema, value, depth + 1);
    const attribute = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    return attribute !== undefined && JOINED_TYPES.has(attribute.type);
  });
}
