/**
 * Strapi v4's `config/middlewares`: each `strapi::<name>` entry becomes Express handlers, in the
 * configured order. Custom middlewares (the app's own, `global::…`, `api::…`, `plugin::…`, or a
 * `resolve` path) stop start-up: they may be guards, so they are never skipped silently.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ConfigError, type MiddlewareEntry } from '../config/index.js';
import { body } from './body.js';
import { compression } from './compression.js';
import { cors } from './cors.js';
import { errors } from './errors.js';
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
import type { MiddlewareContext, MiddlewareFactory, MiddlewareHandlers } from './types.js';

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
}

function factoryOf(file: string, entry: MiddlewareEntry): MiddlewareFactory {
  const builtIn = entry.name.startsWith('strapi::')
    ? STRAPI_MIDDLEWARES[entry.name.slice('strapi::'.length)]
    : undefined;
  if (builtIn) return builtIn;
  if (entry.name.startsWith('strapi::'))
    throw new ConfigError(
      file,
      undefined,
      `unknown middleware "${entry.name}"; Strapi v4's are ${Object.keys(STRAPI_MIDDLEWARES)
        .map((n) => `strapi::${n}`)
        .join(', ')}`,
    );
  throw new ConfigError(
    file,
    undefined,
    `middleware "${entry.name}" is a custom middleware, and custom middlewares are not supported yet by Content Service: remove it from the list to start (check first that the API does not rely on it, e.g. as a guard)`,
  );
}

/** A middleware's own refusal of its config (helmet's, for one) stops start-up in one line naming the entry. */
function build(
  file: string,
  entry: MiddlewareEntry,
  factory: MiddlewareFactory,
  context: MiddlewareContext,
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
export function buildMiddlewares(context: MiddlewareContext): AppMiddlewares {
  const { file, entries } = context.config.middlewares;
  const factories = entries.map((entry) => ({ entry, factory: factoryOf(file, entry) }));
  const missing = REQUIRED.filter((name) => !entries.some((entry) => entry.name === name));
  if (missing.length > 0)
    throw new ConfigError(
      file,
      undefined,
      `misses required middlewares (Strapi v4 needs them too): add ${missing.join(', ')}`,
    );
  const out: AppMiddlewares = { handlers: [], fallback: [], closing: [] };
  for (const { entry, factory } of factories) {
    const made = build(file, entry, factory, context);
    out.handlers.push(...(made.handlers ?? []));
    out.fallback.push(...(made.fallback ?? []));
    out.closing.push(...(made.closing ?? []));
  }
  return out;
}
