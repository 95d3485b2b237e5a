import { Query } from 'mingo/query';
import type { Doc } from '../bson/types.js';
import { isPlainObject } from '../bson/types.js';
import { commandError, toCommandError } from '../errors.js';
import { compileFastFilter } from './fast-filter.js';
import { mingoOptions } from './operators.js';
import { normalizeRegexes } from './regex.js';

export interface MatchOptions {
  collation?: unknown;
  variables?: Doc;
}

export type DocPredicate = (doc: Doc) => boolean;

const ALWAYS: DocPredicate = () => true;

/** Compiles a query filter with the engine's operators; an empty filter matches everything. */
export function compileFilter(filter: unknown, opts: MatchOptions = {}): DocPredicate {
  if (filter === undefined || filter === null) return ALWAYS;
  if (!isPlainObject(filter)) throw commandError('TypeMismatch', 'filter must be an object');
  if (Object.keys(filter).length === 0) return ALWAYS;
  try {
    const normalized = normalizeRegexes(filter);
    const fast = opts.collation ? undefined : compileFastFilter(normalized, opts.variables);
    if (!fast) {
      const q = new Query(normalized, mingoOptions(opts));
      return (doc) => q.test(doc);
    }
    // the general matcher is built only for the first document the native predicate cannot decide
    let general: Query | undefined;
    const slow = (doc: Doc) => {
      try {
        general ??= new Query(normalized, mingoOptions(opts));
      } catch (err) {
        throw toCommandError(err);
      }
      return general.test(doc);
    };
    return (doc) => fast(doc) ?? slow(doc);
  } catch (err) {
    throw toCommandError(err);
  }
}
