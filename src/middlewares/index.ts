/**
 * Strapi v4's `config/middlewares`: each `strapi::<name>` entry becomes Express handlers, in the
 * configured order; the app's own middlewares (`global::…`, `api::…`, `{ resolve }`) run as Koa
 * middlewares at their place (`custom.ts`). An entry that cannot run (a `plugin::…` one, a missing
 * file) stops start-up: middlewares may be guards, so they are never skipped silently.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ConfigError, type MiddlewareEntry } from '../config/index.js';
import { body } from './body.js';
import { compression } from './compression.js';
import { isAppMiddleware, loadCustomMiddleware, type CustomMiddleware } from './custom.js';
import { cors } from './cors.js';
import { errors } from './errors.js';
import { handOffToKoa } from './koa-bridge.js';
import { favicon } from './favicon.js';
import { ip } from './ip.js';
import { logger } from './logger.js';
import { poweredBy } from './powered-by.js';
import { publicFiles } from './public.js';
import { query } from './query.js';
import { responseTime } from './response-time.js';
import { responses } from './responses.js';
import { security } from './security.js';
import { session } from './session.js';
import type { FactoryContext, MiddlewareContext, MiddlewareFactory, MiddlewareHandlers } from './types.js';
import { errorMiddleware } from '../rest/error-middleware.js';

export type { MiddlewareContext } from './types.js';

const STRAPI_MIDDLEWARES: Readonly<Record<string, MiddlewareFactory>> = {
  body,
  compression,
  cors,
  errors,
  favicon,
  ip,
  logger,
  poweredBy,
  public: publicFiles,
  query,
  responseTime,
  responses,
  security,
  session,
};

/** Strapi refuses to start without these. */
const REQUIRED = ['errors', 'security', 'cors', 'query', 'body', 'public', 'favicon'].map((n) => `strapi::${n}`);

export interface AppMiddlewares {
  /** before the routes, in the configured order */
  handlers: RequestHandler[];
  /** after the routes, for requests none answered */
  fallback: RequestHandler[];
  /** the 404 and the error handler */
  closing: Array<RequestHandler | ErrorRequestHandler>;
  /** the app's own middlewares, to start once the app registered */
  custom: CustomMiddleware[];
  /** answers an error as `strapi::errors` does (for the app's Koa middlewares and routes) */
  errors: ErrorRequestHandler;
}

/** A `strapi::<name>` entry's factory; undefined for the app's own middlewares. */
function builtInFactory(file: string, entry: MiddlewareEntry): MiddlewareFactory | undefined {
  if (isAppMiddleware(entry)) return undefined;
  const builtIn = STRAPI_MIDDLEWARES[entry.name.slice('strapi::'.length)];
  if (builtIn) return builtIn;
  throw new ConfigError(
    file,
    undefined,
    `unknown middleware "${entry.name}"; Strapi v4's are ${Object.keys(STRAPI_MIDDLEWARES)
      .map((n) => `strapi::${n}`)
      .join(', ')}`,
  );
}

/** A middleware's own refusal of its config (helmet's, for one) stops start-up in one line naming the entry. */
function build(
  file: string,
  entry: MiddlewareEntry,
  factory: MiddlewareFactory,
  context: FactoryContext,
): MiddlewareHandlers {
  try {
    return factory(entry.config, context);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(
      file,
      entry.name,
      `its config is refused: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Resolves `config/middlewares` into Express handlers; any entry that cannot be honoured stops start-up. */
export async function buildMiddlewares(context: MiddlewareContext): Promise<AppMiddlewares> {
  const { file, entries } = context.config.middlewares;
  const errorAnswers = errorMiddleware(context.logger, context.graphqlEndpoint);
  const resolved: Array<{ entry: MiddlewareEntry; factory: MiddlewareFactory } | CustomMiddleware> = [];
  for (const entry of entries) {
    const factory = builtInFactory(file, entry);
    resolved.push(
      factory
        ? { entry, factory }
        : await loadCustomMiddleware(file, entry, {
            appDir: context.config.appDir,
            logger: context.logger,
            errors: errorAnswers,
          }),
    );
  }
  const missing = REQUIRED.filter((name) => !entries.some((entry) => entry.name === name));
  if (missing.length > 0)
    throw new ConfigError(
      file,
      undefined,
      `misses required middlewares (Strapi v4 needs them too): add ${missing.join(', ')}`,
    );
  const out: AppMiddlewares = { handlers: [], fallback: [], closing: [], custom: [], errors: errorAnswers };
  for (const item of resolved) {
    if ('start' in item) {
      out.handlers.push(item.handler);
      out.custom.push(item);
      continue;
    }
    const made = build(file, item.entry, item.factory, { ...context, errors: errorAnswers });
    out.handlers.push(...(made.handlers ?? []));
    out.fallback.push(...(made.fallback ?? []));
    out.closing.push(...(made.closing ?? []));
  }
  // an error downstream of an app's Koa middleware (here or added by its code) goes back to its `await next()` first
  out.closing.unshift(handOffToKoa);
  return out;
}
