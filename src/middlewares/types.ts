import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { ServiceConfig } from '../config/index.js';
import type { Logger } from '../logger.js';

/** What a middleware factory is given besides its own `config`. */
export interface MiddlewareContext {
  app: Express;
  config: ServiceConfig;
  logger: Logger;
  /** the GraphQL endpoint when the plugin is on (Strapi's security and body middlewares treat it apart) */
  graphqlEndpoint: string | null;
}

/**
 * What a middleware adds to the app: `handlers` run in the configured order before the routes;
 * `fallback` handlers run after the routes, for requests none of them answered (Strapi serves
 * `public/` and its index page that way); `closing` handlers end the chain (the 404 and the
 * error handler).
 */
export interface MiddlewareHandlers {
  handlers?: RequestHandler[];
  fallback?: RequestHandler[];
  closing?: Array<RequestHandler | ErrorRequestHandler>;
}

/** What a `strapi::<name>` factory is given: the context, and how `strapi::errors` answers an error. */
export interface FactoryContext extends MiddlewareContext {
  errors: ErrorRequestHandler;
}

/** One of Strapi's `strapi::<name>` middlewares: its `config` from `config/middlewares` in, handlers out. */
export type MiddlewareFactory = (config: Record<string, unknown>, context: FactoryContext) => MiddlewareHandlers;
