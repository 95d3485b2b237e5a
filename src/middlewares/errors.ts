import { errorMiddleware, notFound } from '../rest/error-middleware.js';
import type { MiddlewareFactory } from './types.js';

/**
 * `strapi::errors`: every error leaves in Strapi's error shape, and a request nothing answered is a
 * 404. Express runs error handlers after the routes whatever their place in the list, so this
 * closes the chain.
 */
export const errors: MiddlewareFactory = (_config, { logger, graphqlEndpoint }) => ({
  closing: [notFound, errorMiddleware(logger, graphqlEndpoint)],
});
