/**
 * Strapi v4's custom scalars: DateTime, Date, Time, Long, JSON, I18NLocaleCode, Upload.
 * Values are passed to the write path / query engine as the REST API receives them (strings,
 * numbers), which validates them with Strapi's messages; output is what the query engine formats.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

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

function stringScalar(name: string, description: string, pattern: RegExp): GraphQLScalarType {
  const check = (value: unknown): string => {
    const text = value instanceof Date ? value.toISOString() : value;
    if (typeof text !== 'string' || !pattern.test(text))
      throw new GraphQLError(`${name} cannot represent value: ${JSON.stringify(value)}`);
    return text;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => (value instanceof Date ? value.toISOString() : value),
    parseValue: check,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING)
        throw new GraphQLError(`${name} cannot represent a non string value`, { nodes: ast });
      return check(ast.value);
    },
  });
}

export const DateTimeScalar = stringScalar(
  'DateTime',
  'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/,
);

export const DateScalar = stringScalar(
  'Date',
  'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  /^\d{4}-\d{2}-\d{2}$/,
);

export const TimeScalar = stringScalar(
  'Time',
  'A time string with format HH:mm:ss.SSS',
  /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
);

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
  parseValue: longValue,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING)
      throw new GraphQLError('Long cannot represent a non-integer value', { nodes: ast });
    return longValue(ast.value);
  },
});

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description:
    'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables),
});

export const I18NLocaleCodeScalar = new GraphQLScalarType({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError('I18NLocaleCode must be a string');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('I18NLocaleCode must be a string', { nodes: ast });
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

/** A dynamic zone's input: JSON objects carrying `__component`. */
export function dynamicZoneInputScalar(name: string): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast, variables) => literalValue(ast, variables),
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
