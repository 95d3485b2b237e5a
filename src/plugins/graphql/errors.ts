/**
 * Our AppErrors (and the app's own `@strapi/utils` errors) as GraphQL errors, the way Strapi v4's
 * plugin-graphql formats them: `extensions: { error: { name, message, details }, code }` with code
 * FORBIDDEN (ForbiddenError, its PolicyError, and UnauthorizedError), BAD_USER_INPUT
 * (ValidationError) or `STRAPI_<NAME>` (PaginationError → STRAPI_PAGINATION_ERROR); anything else
 * is an internal error whose message is not leaked.
 */
import { GraphQLError } from 'graphql';
import { HttpError, fromStrapiUtilsError, isAppError, type AppError } from '../../errors/index.js';
import { databaseRefusal } from '../../database/database-errors.js';
import type { Logger } from '../../logger.js';

export const VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED';
export const PARSE_FAILED = 'GRAPHQL_PARSE_FAILED';

function snakeUpper(name: string): string {
  return name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toUpperCase();
}

/** An internal error whose message Strapi v4 shows (code INTERNAL_SERVER_ERROR, with locations and path). */
export class ShownInternalError extends Error {}

/** graphql-js's own error for a resolver's null in a non-null field: names only the schema's field. */
const NON_NULL_FIELD = /^Cannot return null for non-nullable field [_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*\.$/;

/** Strapi's formatter answers every ForbiddenError (PolicyError is one) and UnauthorizedError as Apollo's ForbiddenError. */
const FORBIDDEN_NAMES = new Set(['ForbiddenError', 'PolicyError', 'UnauthorizedError']);

export function errorCode(error: AppError): string {
  if (FORBIDDEN_NAMES.has(error.name)) return 'FORBIDDEN';
  if (error.name === 'ValidationError') return 'BAD_USER_INPUT';
  return `STRAPI_${snakeUpper(error.name)}`;
}

/** A resolver error as the client sees it. */
export function formatResolverError(error: GraphQLError, logger: Logger): GraphQLError {
  const cause = error.originalError;
  if (!cause || cause instanceof GraphQLError) return error;
  // a scalar's parse error met by validation (Strapi's Time, Locale) is already the client's answer
  const code = error.extensions.code;
  if (code === VALIDATION_FAILED || code === PARSE_FAILED) return error;
  if (cause instanceof ShownInternalError || (cause.constructor === Error && NON_NULL_FIELD.test(cause.message)))
    return withCode(error, 'INTERNAL_SERVER_ERROR');
  // a package's own @strapi/utils error (an upload provider's PayloadTooLargeError) answers as Strapi's
  const original = databaseRefusal(cause) ?? fromStrapiUtilsError(cause);
  // Strapi's GraphQL formats only its ApplicationErrors; a client's input refused this way is no fault to log
  if (original instanceof HttpError) return internalError();
  if (isAppError(original)) {
    // Strapi's answers carry neither `locations` nor `path` on resolver errors
    return new GraphQLError(original.message, {
      extensions: {
        error: { name: original.name, message: original.message, details: original.details },
        code: errorCode(original),
      },
    });
  }
  logger.error({ err: original }, 'GraphQL resolver failed');
  return internalError();
}

function internalError(): GraphQLError {
  return new GraphQLError('Internal Server Error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** A validation (or parse) error with Apollo's `extensions.code`. */
export function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
