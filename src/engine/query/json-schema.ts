import { compareValues, valueKey } from '../bson/compare.js';
import { bsonTypeOf, isPlainObject, TYPE_NUMBERS, type BsonTypeName, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';

/**
 * MongoDB's `$jsonSchema` (draft 4 with `bsonType`, without `$ref`, `format`, `default`,
 * `definitions`, `integer`): a validator over BSON values that answers, for a failing document,
 * the rules it broke in the shape of mongod's `errInfo.details.schemaRulesNotSatisfied`.
 *
 * Written here rather than on a JSON Schema library (ajv and the like): every keyword has to see
 * BSON values with MongoDB's semantics (int64/Decimal128 are numbers, ObjectId and Date are not
 * objects, `enum` and `uniqueItems` compare as MongoDB does, draft-4 boolean
 * `exclusiveMinimum`), and mongod reports failures as a tree per keyword with its own reasons,
 * which a library's flat error list does not carry.
 */
export type SchemaCheck = (value: unknown) => Doc[];

const JSON_TYPES: Record<string, BsonTypeName[]> = {
  object: ['object'],
  array: ['array'],
  number: ['int', 'long', 'double', 'decimal'],
  boolean: ['bool'],
  string: ['string'],
  null: ['null'],
};

const NUMBER_TYPES: BsonTypeName[] = ['int', 'long', 'double', 'decimal'];

/** Keywords with no effect on validation. */
const ANNOTATIONS = new Set(['title', 'description']);

const UNSUPPORTED = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

type Keyword = (spec: unknown, schema: Doc) => SchemaCheck;

function parseError(message: string): never {
  throw commandError('FailedToParse', message);
}

function typeNames(keyword: string, spec: unknown): BsonTypeName[] {
  const names = Array.isArray(spec) ? spec : [spec];
  if (names.length === 0) parseError(`${keyword} must be a non-empty array`);
  return names.flatMap((name) => {
    if (typeof name !== 'string') parseError(`${keyword} must be a string or an array of strings`);
    if (keyword === 'type') {
      if (name === 'integer') parseError("$jsonSchema type 'integer' is not currently supported.");
      const types = JSON_TYPES[name];
      if (!types) parseError(`Unknown type name alias: ${name}`);
      return types;
    }
    if (name === 'number') return NUMBER_TYPES;
    if (TYPE_NUMBERS[name] === undefined) parseError(`Unknown type name alias: ${name}`);
    return [name as BsonTypeName];
  });
}

function typeKeyword(keyword: 'type' | 'bsonType'): Keyword {
  return (spec) => {
    const allowed = new Set(typeNames(keyword, spec));
    return (value) =>
      allowed.has(bsonTypeOf(value))
        ? []
        : [
            {
              operatorName: keyword,
              specifiedAs: { [keyword]: spec },
              reason: 'type did not match',
              consideredValue: value,
              consideredType: bsonTypeOf(value),
            },
          ];
  };
}

function nonNegativeInteger(keyword: string, spec: unknown): number {
  const n = typeof spec === 'number' ? spec : Number(String(spec));
  if (!Number.isInteger(n) || n < 0) parseError(`${keyword} must be a representable as a long`);
  return n;
}

function schemaOf(keyword: string, spec: unknown): SchemaCheck {
  if (!isPlainObject(spec)) parseError(`${keyword} must be an object`);
  return compileSchema(spec);
}

function schemaList(keyword: string, spec: unknown): SchemaCheck[] {
  if (!Array.isArray(spec) || spec.length === 0) parseError(`${keyword} must be a non-empty array`);
  return spec.map((s) => schemaOf(keyword, s));
}

/** A keyword that applies to values of some types only (others pass, as in JSON Schema). */
function onTypes(types: BsonTypeName[], check: (value: never) => Doc[]): SchemaCheck {
  return (value) => (types.includes(bsonTypeOf(value)) ? check(value as never) : []);
}

function failure(keyword: string, spec: unknown, reason: string, value: unknown, extra: Doc = {}): Doc {
  return { operatorName: keyword, specifiedAs: { [keyword]: spec }, reason, consideredValue: value, ...extra };
}

function bound(keyword: 'minimum' | 'maximum'): Keyword {
  return (spec, schema) => {
    if (!NUMBER_TYPES.includes(bsonTypeOf(spec))) parseError(`${keyword} must be a number`);
    const exclusive = schema[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true;
    return onTypes(NUMBER_TYPES, (value: unknown) => {
      const c = compareValues(value, spec);
      const ok = keyword === 'minimum' ? (exclusive ? c > 0 : c >= 0) : exclusive ? c < 0 : c <= 0;
      return ok ? [] : [failure(keyword, spec, 'comparison failed', value)];
    });
  };
}

function length(keyword: string, types: BsonTypeName[], measure: (v: never) => number, min: boolean): Keyword {
  return (spec) => {
    const n = nonNegativeInteger(keyword, spec);
    const reason =
      types[0] === 'string'
        ? 'specified string length was not satisfied'
        : types[0] === 'array'
          ? 'array did not match specified length'
          : 'specified number of properties was not satisfied';
    return onTypes(types, (value: never) => {
      const size = measure(value);
      return (min ? size >= n : size <= n) ? [] : [failure(keyword, spec, reason, value)];
    });
  };
}

const KEYWORDS: Record<string, Keyword> = {
  bsonType: typeKeyword('bsonType'),
  type: typeKeyword('type'),
  enum: (spec) => {
    if (!Array.isArray(spec) || spec.length === 0) parseError('enum must be a non-empty array');
    const keys = new Set(spec.map(valueKey));
    return (value) =>
      value === undefined || keys.has(valueKey(value))
        ? []
        : [failure('enum', spec, 'value was not found in enum', value)];
  },
  minimum: bound('minimum'),
  maximum: bound('maximum'),
  exclusiveMinimum: (spec) => (typeof spec === 'boolean' ? () => [] : parseError('exclusiveMinimum must be a boolean')),
  exclusiveMaximum: (spec) => (typeof spec === 'boolean' ? () => [] : parseError('exclusiveMaximum must be a boolean')),
  multipleOf: (spec) => {
    if (typeof spec !== 'number' || !(spec > 0)) parseError('multipleOf must be a positive number');
    return onTypes(NUMBER_TYPES, (value: unknown) =>
      Number(value) % spec === 0 ? [] : [failure('multipleOf', spec, 'considered value is not a multiple', value)],
    );
  },
  minLength: length('minLength', ['string'], (v: string) => [...v].length, true),
  maxLength: length('maxLength', ['string'], (v: string) => [...v].length, false),
  pattern: (spec) => {
    if (typeof spec !== 'string') parseError('pattern must be a string');
    const regex = new RegExp(spec, 'u');
    return onTypes(['string'], (value: string) =>
      regex.test(value) ? [] : [failure('pattern', spec, 'regular expression did not match', value)],
    );
  },
  minItems: length('minItems', ['array'], (v: unknown[]) => v.length, true),
  maxItems: length('maxItems', ['array'], (v: unknown[]) => v.length, false),
  uniqueItems: (spec) => {
    if (typeof spec !== 'boolean') parseError('uniqueItems must be a boolean');
    return onTypes(['array'], (value: unknown[]) =>
      !spec || new Set(value.map(valueKey)).size === value.length
        ? []
        : [failure('uniqueItems', spec, 'found a duplicate item', value)],
    );
  },
  items: (spec, schema) => {
    if (Array.isArray(spec)) {
      const checks = spec.map((s) => schemaOf('items', s));
      const rest = schema.additionalItems;
      const additional =
        rest === false ? false : isPlainObject(rest) ? compileSchema(rest) : rest === undefined || rest === true;
      return onTypes(['array'], (value: unknown[]) => {
        const itemsNotSatisfied: Doc[] = [];
        value.forEach((item, index) => {
          const check = index < checks.length ? checks[index] : additional;
          if (check === false) itemsNotSatisfied.push({ index, reason: 'additional item not allowed' });
          else if (typeof check === 'function') {
            const details = check(item);
            if (details.length) itemsNotSatisfied.push({ index, details });
          }
        });
        return itemsNotSatisfied.length ? [{ operatorName: 'items', itemsNotSatisfied }] : [];
      });
    }
    const check = schemaOf('items', spec);
    return onTypes(['array'], (value: unknown[]) => {
      for (let index = 0; index < value.length; index++) {
        const details = check(value[index]);
        if (details.length)
          return [
            {
              operatorName: 'items',
              reason: 'At least one item did not match the sub-schema',
              itemIndex: index,
              details,
            },
          ];
      }
      return [];
    });
  },
  additionalItems: (spec) => {
    if (typeof spec !== 'boolean' && !isPlainObject(spec)) parseError('additionalItems must be an object or a boolean');
    return () => []; // applied by `items`
  },
  required: (spec) => {
    if (!Array.isArray(spec) || spec.length === 0 || !spec.every((s) => typeof s === 'string'))
      parseError('required must be a non-empty array of strings');
    return onTypes(['object'], (value: Doc) => {
      const missingProperties = (spec as string[]).filter((name) => value[name] === undefined);
      return missingProperties.length
        ? [{ operatorName: 'required', specifiedAs: { required: spec }, missingProperties }]
        : [];
    });
  },
  properties: (spec) => {
    if (!isPlainObject(spec)) parseError('properties must be an object');
    const checks = Object.entries(spec).map(([name, s]) => [name, schemaOf(`properties.${name}`, s)] as const);
    return onTypes(['object'], (value: Doc) => {
      const propertiesNotSatisfied: Doc[] = [];
      for (const [propertyName, check] of checks) {
        if (value[propertyName] === undefined) continue;
        const details = check(value[propertyName]);
        if (details.length) propertiesNotSatisfied.push({ propertyName, details });
      }
      return propertiesNotSatisfied.length ? [{ operatorName: 'properties', propertiesNotSatisfied }] : [];
    });
  },
  patternProperties: (spec) => {
    if (!isPlainObject(spec)) parseError('patternProperties must be an object');
    const checks = Object.entries(spec).map(
      ([p, s]) => [p, new RegExp(p, 'u'), schemaOf('patternProperties', s)] as const,
    );
    return onTypes(['object'], (value: Doc) => {
      const propertiesNotSatisfied: Doc[] = [];
      for (const [name, v] of Object.entries(value))
        for (const [regex, re, check] of checks) {
          if (!re.test(name)) continue;
          const details = check(v);
          if (details.length) propertiesNotSatisfied.push({ propertyName: name, regex, details });
        }
      return propertiesNotSatisfied.length ? [{ operatorName: 'patternProperties', propertiesNotSatisfied }] : [];
    });
  },
  additionalProperties: (spec, schema) => {
    if (typeof spec !== 'boolean' && !isPlainObject(spec))
      parseError('additionalProperties must be either an object or a boolean');
    const named = new Set(isPlainObject(schema.properties) ? Object.keys(schema.properties) : []);
    const patterns = isPlainObject(schema.patternProperties)
      ? Object.keys(schema.patternProperties).map((p) => new RegExp(p, 'u'))
      : [];
    const check = isPlainObject(spec) ? compileSchema(spec) : undefined;
    return onTypes(['object'], (value: Doc) => {
      const extra = Object.keys(value).filter((k) => !named.has(k) && !patterns.some((re) => re.test(k)));
      if (spec === false)
        return extra.length
          ? [
              {
                operatorName: 'additionalProperties',
                specifiedAs: { additionalProperties: false },
                additionalProperties: extra,
              },
            ]
          : [];
      if (!check) return [];
      const propertiesNotSatisfied = extra
        .map((propertyName) => ({ propertyName, details: check(value[propertyName]) }))
        .filter((p) => p.details.length > 0);
      return propertiesNotSatisfied.length ? [{ operatorName: 'additionalProperties', propertiesNotSatisfied }] : [];
    });
  },
  minProperties: length('minProperties', ['object'], (v: Doc) => Object.keys(v).length, true),
  maxProperties: length('maxProperties', ['object'], (v: Doc) => Object.keys(v).length, false),
  dependencies: (spec) => {
    if (!isPlainObject(spec)) parseError('dependencies must be an object');
    const checks = Object.entries(spec).map(([name, dep]) => {
      if (Array.isArray(dep)) {
        const names = dep as string[];
        return [name, (v: Doc) => names.filter((n) => v[n] === undefined)] as const;
      }
      const check = schemaOf('dependencies', dep);
      return [name, (v: Doc) => check(v)] as const;
    });
    return onTypes(['object'], (value: Doc) => {
      const failingDependencies: Doc[] = [];
      for (const [conditionalProperty, check] of checks) {
        if (value[conditionalProperty] === undefined) continue;
        const found = check(value);
        if (found.length === 0) continue;
        failingDependencies.push(
          typeof found[0] === 'string'
            ? { conditionalProperty, missingProperties: found }
            : { conditionalProperty, details: found },
        );
      }
      return failingDependencies.length ? [{ operatorName: 'dependencies', failingDependencies }] : [];
    });
  },
  allOf: (spec) => {
    const checks = schemaList('allOf', spec);
    return (value) => {
      const schemasNotSatisfied = checks
        .map((check, index) => ({ index, details: check(value) }))
        .filter((s) => s.details.length > 0);
      return schemasNotSatisfied.length ? [{ operatorName: 'allOf', schemasNotSatisfied }] : [];
    };
  },
  anyOf: (spec) => {
    const checks = schemaList('anyOf', spec);
    return (value) => {
      const results = checks.map((check) => check(value));
      if (results.some((r) => r.length === 0)) return [];
      return [{ operatorName: 'anyOf', schemasNotSatisfied: results.map((details, index) => ({ index, details })) }];
    };
  },
  oneOf: (spec) => {
    const checks = schemaList('oneOf', spec);
    return (value) => {
      const results = checks.map((check) => check(value));
      const passed = results.filter((r) => r.length === 0).length;
      if (passed === 1) return [];
      if (passed > 1)
        return [{ operatorName: 'oneOf', specifiedAs: { oneOf: spec }, reason: 'value matched more than one schema' }];
      return [{ operatorName: 'oneOf', schemasNotSatisfied: results.map((details, index) => ({ index, details })) }];
    };
  },
  not: (spec) => {
    const check = schemaOf('not', spec);
    return (value) =>
      check(value).length === 0
        ? [{ operatorName: 'not', specifiedAs: { not: spec }, reason: 'child expression matched' }]
        : [];
  },
  encrypt: () => parseError('encrypt is not supported by the embedded engine'),
};

// keywords are compiled once per schema object (a validator is checked on every write)
const compiled = new WeakMap<Doc, SchemaCheck>();

/** Compiles a `$jsonSchema` (FailedToParse on a keyword MongoDB would refuse). */
export function compileSchema(schema: Doc): SchemaCheck {
  const known = compiled.get(schema);
  if (known) return known;
  if (schema.type !== undefined && schema.bsonType !== undefined)
    parseError("Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
  const checks: SchemaCheck[] = [];
  for (const [keyword, spec] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (UNSUPPORTED.has(keyword)) parseError(`$jsonSchema keyword '${keyword}' is not currently supported`);
    const make = Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword] : undefined;
    if (!make) parseError(`Unknown $jsonSchema keyword: ${keyword}`);
    checks.push(make(spec, schema));
  }
  const check: SchemaCheck = (value) => checks.flatMap((c) => c(value));
  compiled.set(schema, check);
  return check;
}
