import { ValidationError } from '../errors/index.js';
import { nestedDeeperThan } from '../query/qs-values.js';

/**
 * How deep a JSON request body may nest. MongoDB stores nothing nested over 100 levels, so no
 * valid write or query is deeper; a deeper body would only make recursive code (validation,
 * GraphQL variable coercion, value copies) overflow its stack.
 */
export const MAX_BODY_DEPTH = 100;

/** A 400 for a parsed JSON body (or a multipart request's JSON part) nested over MAX_BODY_DEPTH levels. */
export function checkBodyDepth(body: unknown): void {
  if (nestedDeeperThan(body, MAX_BODY_DEPTH))
    throw new ValidationError(`Invalid request body: nested over ${MAX_BODY_DEPTH} levels deep`);
}
