/**
 * Attribute type → GraphQL scalar (one entry per Strapi scalar type). Relations, media,
 * components and dynamic zones are built by the type builders (types.ts).
 */
import type { Attribute, ScalarType, Schema } from '../../content-types/index.js';
import { GRAPHQL_NAME } from './graphql-names.js';

export const SCALAR_GRAPHQL_TYPES: Record<ScalarType, string> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  email: 'String',
  password: 'String',
  uid: 'String',
  enumeration: 'String',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  boolean: 'Boolean',
  json: 'JSON',
  blocks: 'JSON',
};

/** The scalar a filter on this attribute compares with (enumerations filter as strings). */
export function filterScalar(attribute: Attribute): string | null {
  return attribute.type in SCALAR_GRAPHQL_TYPES ? SCALAR_GRAPHQL_TYPES[attribute.type as ScalarType] : null;
}

/** Never a GraphQL field or filter (Strapi answers the hash): a password is write-only. */
export function isWriteOnly(attribute: Attribute): boolean {
  return attribute.type === 'password';
}

/**
 * A schema's attributes GraphQL has, in Strapi's order: its own attributes, `createdAt`, `updatedAt`,
 * `publishedAt`, then i18n's `localizations` and `locale` (the registry lists `locale` first). An
 * attribute whose name is no GraphQL name is left out (graphql-names.ts).
 */
export function graphqlAttributes(schema: Schema): Array<[string, Attribute]> {
  const entries = Object.entries(schema.attributes).filter(([name]) => GRAPHQL_NAME.test(name));
  if (schema.modelType !== 'contentType' || !schema.localized) return entries;
  const locale = entries.filter(([name]) => name === 'locale');
  return [...entries.filter(([name]) => name !== 'locale'), ...locale];
}
