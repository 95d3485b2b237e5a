import { AppError } from './app-error.js';

/**
 * The status of each error class of `@strapi/utils` `errors` (the app's own copy of the package,
 * so they are known by name): thrown by an app's code, they answer as Strapi's error middleware does.
 */
const STRAPI_ERROR_STATUS: Record<string, number> = {
  ApplicationError: 400,
  ValidationError: 400,
  PaginationError: 400,
  NotFoundError: 404,
  ForbiddenError: 403,
  UnauthorizedError: 401,
  PolicyError: 403,
  PayloadTooLargeError: 413,
  RateLimitError: 429,
  NotImplementedError: 501,
};

/** An app's `@strapi/utils` error as the service's own; anything else stays as it is. */
export function fromStrapiUtilsError(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof AppError) return err;
  const status = STRAPI_ERROR_STATUS[err.name];
  const details = (err as { details?: unknown }).details;
  if (status === undefined || typeof details !== 'object' || details === null) return err;
  return new AppError(status, err.name, err.message, details as Record<string, unknown>);
}
