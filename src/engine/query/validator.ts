import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';
import { compileFilter } from './filter.js';
import { compileSchema } from './json-schema.js';

/** A collection validator: undefined for a valid document, else mongod's `errInfo.details`. */
export type DocumentValidator = (doc: Doc) => Doc | undefined;

/** Query operators mongod refuses inside a validator. */
const FORBIDDEN = ['$where', '$near', '$nearSphere', '$text', '$geoNear'];

const compiled = new WeakMap<Doc, DocumentValidator>();

/**
 * Compiles a collection's `validator`: a query filter whose top-level clauses may include
 * `$jsonSchema`. A failing document gets the failing clauses' details (a single clause's alone,
 * several under `$and`), as mongod reports them.
 */
export function compileValidator(validator: Doc): DocumentValidator {
  const known = compiled.get(validator);
  if (known) return known;
  const clauses = Object.entries(validator).map(([key, spec]) => clauseCheck(key, spec));
  const check: DocumentValidator = (doc) => {
    const failed: Doc[] = [];
    clauses.forEach((clause, index) => {
      const details = clause(doc);
      if (details) failed.push({ index, details });
    });
    if (failed.length === 0) return undefined;
    if (clauses.length === 1) return failed[0].details as Doc;
    return { operatorName: '$and', clausesNotSatisfied: failed };
  };
  compiled.set(validator, check);
  return check;
}

function clauseCheck(key: string, spec: unknown): DocumentValidator {
  if (FORBIDDEN.includes(key)) throw commandError('BadValue', `${key} is not allowed in collection validators`);
  if (key === '$jsonSchema') {
    if (!isPlainObject(spec)) throw commandError('TypeMismatch', '$jsonSchema must be an object');
    const schema = compileSchema(spec);
    return (doc) => {
      const schemaRulesNotSatisfied = schema(doc);
      return schemaRulesNotSatisfied.length ? { operatorName: '$jsonSchema', schemaRulesNotSatisfied } : undefined;
    };
  }
  const filter = { [key]: spec };
  const matches = compileFilter(filter);
  const operatorName = key.startsWith('$')
    ? key
    : isPlainObject(spec) && Object.keys(spec)[0]?.startsWith('$')
      ? Object.keys(spec)[0]
      : '$eq';
  return (doc) =>
    matches(doc)
      ? undefined
      : {
          operatorName,
          specifiedAs: filter,
          reason: key.startsWith('$') ? 'expression did not match' : 'comparison failed',
          ...(key.startsWith('$') || doc[key] === undefined ? {} : { consideredValue: doc[key] }),
        };
}
