import type { RequestHandler } from 'express';
import { ValidationError } from '../errors/index.js';
import { nestedDeeperThan } from '../query/qs-values.js';

/**
 * How deep a JSON body may nest. MongoDB stores nothing nested over 100 levels, so no valid
 * write or query is deeper; a deeper body would only make recursive code (validation, GraphQL
 * variable coercion) overflow its stack.
 */
export const MAX_BODY_DEPTH = 100;

/** A 400 for a parsed JSON body nested over MAX_BODY_DEPTH levels. */
export const bodyDepthGuard: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  next(
    nestedDeeperThan(body, MAX_BODY_DEPTH)
      ? new ValidationError(`Invalid request body: nested over ${MAX_BODY_DEPTH} levels deep`)
      : undefined,
  );
};
