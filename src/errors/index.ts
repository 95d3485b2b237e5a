export { AppError, isAppError, type ErrorDetails, type StrapiErrorBody } from './app-error.js';
export { HttpError } from './http-error.js';
export * from './errors.js';
export { invariant } from './invariant.js';
export { ConflictError } from './conflict.js';
export { fromStrapiUtilsError } from './strapi-utils.js';
