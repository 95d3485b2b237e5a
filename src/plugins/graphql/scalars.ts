/**
 * Strapi v4's custom scalars: DateTime, Date, Time, Long, JSON, I18NLocaleCode, Upload. Literals
 * are parsed as Strapi parses them (a bad one is a validation error with Strapi's message); values
 * are passed to the write path / query engine as the REST API receives them (strings, numbers);
 * output is what the query engine formats.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLDate, GraphQLDateTime, GraphQLLong } from 'graphql-scalars';
import { storedTime } from '../../write/stored-formats.js';

function literalValue(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

/**
 * Strapi takes DateTime, Date and Long from graphql-scalars (1.22, its version): their parsing,
 * and so their messages and error locations, are that library's. Parsed values are handed on as
 * the REST path reads them (ISO strings, `YYYY-MM-DD`, numbers or decimal strings); output is
 * what the query engine formats.
 */
function asIsoString(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Strapi's cast of a parsed Date: the date part of its ISO string. */
function asDateString(value: unknown): unknown {
  return value instanceof Date ? value.toISOString().split('T')[0] : value;
}

/** A BigInt as the query engine takes whole numbers: a number when it is safe, else its decimal string. */
function asLong(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value.toString();
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: GraphQLDateTime.description,
  serialize: (value) => asIsoString(value),
  parseValue: (value) => asIsoString(GraphQLDateTime.parseValue(value)),
  parseLiteral: (ast, variables) => asIsoString(GraphQLDateTime.parseLiteral(ast, variables)),
});

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: GraphQLDate.description,
  serialize: (value) => asIsoString(value),
  parseValue: (value) => asDateString(GraphQLDate.parseValue(value)),
  parseLiteral: (ast, variables) => asDateString(GraphQLDate.parseLiteral(ast, variables)),
});

/**
 * Strapi's own Time scalar: its parse errors are plain errors, which GraphQL validation reports as
 * `Expected value of type "Time", found …; <message>`.
 */
function parseTime(value: unknown): string {
  const time = storedTime(value);
  if (!time.ok) throw new Error(time.message);
  return String(time.value);
}

export const TimeScalar = new GraphQLScalarType({
  name: 'Time',
  description: 'A time string with format HH:mm:ss.SSS',
  serialize: (value) => value,
  parseValue: parseTime,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new Error('Time cannot represent non string type');
    return parseTime(ast.value);
  },
});

/** Whole numbers beyond 32 bits: a number when it is a safe integer, else its decimal string. */
function longValue(value: unknown): number | string {
  const text =
    typeof value === 'bigint' || typeof value === 'number'
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : '';
  if (!/^-?\d+$/.test(text))
    throw new GraphQLError(`Long cannot represent non-integer value: ${JSON.stringify(value)}`);
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: (value) => (value !== null && typeof value === 'object' ? longValue(String(value)) : longValue(value)),
  parseValue: (value) => asLong(GraphQLLong.parseValue(value)),
  parseLiteral: (ast, variables) => asLong(GraphQLLong.parseLiteral(ast, variables)),
});

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description:
    'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  specifiedByURL: 'http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables),
});

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * Whether a locale literal names a locale: `all`, or a canonical code (`fr`, `fr-CA`, `zh-Hans`)
 * whose language and region ICU knows. Strapi checks against its list of ISO locale codes, a
 * subset of ICU's.
 */
function isLocaleCode(code: string): boolean {
  if (code === 'all') return true;
  try {
    if (Intl.getCanonicalLocales(code)[0] !== code) return false;
  } catch {
    return false;
  }
  return LANGUAGE_NAMES.of(code) !== undefined;
}

export const I18NLocaleCodeScalar = new GraphQLScalarType({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError('I18NLocaleCode must be a string');
    return value;
  },
  parseLiteral: (ast) => {
    // a plain error, as Strapi's: validation reports it as `Expected value of type …; <message>`
    if (ast.kind !== Kind.STRING) throw new Error('Locale cannot represent non string type');
    if (!isLocaleCode(ast.value)) throw new Error('Unknown locale supplied');
    return ast.value;
  },
});

export const UploadScalar = new GraphQLScalarType({
  name: 'Upload',
  description: 'The `Upload` scalar type represents a file upload.',
  serialize: () => {
    throw new GraphQLError('Upload serialization unsupported.');
  },
  parseValue: (value) => value,
  parseLiteral: () => {
    throw new GraphQLError('Upload literal unsupported.');
  },
});

/**
 * A dynamic zone's input, as Strapi reads it: each item names its component by GraphQL type in
 * `__typename` (any component of the app), and becomes `{ __component: uid, ...fields }`. Another
 * name is a plain error, which validation reports as `Expected value of type …; Component not
 * found. expected one of: <the zone's component types>`; a literal that is no object is refused.
 */
export function dynamicZoneInputScalar(
  name: string,
  componentsByTypeName: ReadonlyMap<string, string>,
  zoneTypeNames: readonly string[],
): GraphQLScalarType {
  const parseItem = (value: unknown): unknown => {
    const item = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
    const { __typename: typename, ...fields } = item as Record<string, unknown>;
    const uid = typeof typename === 'string' ? componentsByTypeName.get(typename) : undefined;
    if (!uid) throw new Error(`Component not found. expected one of: ${zoneTypeNames.join(', ')}`);
    return { __component: uid, ...fields };
  };
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: parseItem,
    parseLiteral: (ast, variables) => (ast.kind === Kind.OBJECT ? parseItem(literalValue(ast, variables)) : undefined),
  });
}

export const CUSTOM_SCALARS = [
  DateTimeScalar,
  DateScalar,
  TimeScalar,
  LongScalar,
  JSONScalar,
  I18NLocaleCodeScalar,
  UploadScalar,
];
