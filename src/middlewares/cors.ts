import type { Request, RequestHandler, Response } from 'express';
import corsPackage from 'cors';
import { ConfigError } from '../config/index.js';
import { createKoaContext, type KoaContext } from './koa-context.js';
import type { MiddlewareFactory } from './types.js';

/** An `origin(ctx)` function of a Strapi app gets Koa's `ctx` of the request. */
type OriginSetting = string | string[] | ((ctx: KoaContext) => unknown);

/** Strapi v4's `strapi::cors` defaults. */
const DEFAULTS = {
  origin: '*' as OriginSetting,
  maxAge: 31536000,
  credentials: true,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
};

function list(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'string' ? value : undefined;
}

/**
 * The `Access-Control-Allow-Origin` Strapi answers, or false for an origin it refuses: a list (or a
 * comma-separated string) allows its members; a single string is answered as it is; a function gets
 * the request context; a request without `Origin` gets `*`.
 */
function allowedOrigin(setting: OriginSetting, req: Request, res: Response): string | false | Promise<string | false> {
  const requestOrigin = req.get('Origin');
  if (!requestOrigin) return '*';
  // only an app's origin function makes the answer wait
  if (typeof setting === 'function')
    return Promise.resolve(setting(createKoaContext(req, res, { body: undefined, explicitStatus: false }))).then(
      (origins) => allowedAmong(origins, requestOrigin),
    );
  return allowedAmong(setting, requestOrigin);
}

function allowedAmong(origins: unknown, requestOrigin: string): string | false {
  if (Array.isArray(origins)) return origins.includes(requestOrigin) ? requestOrigin : false;
  if (typeof origins !== 'string' || origins === '') return false;
  const parts = origins.split(',').map((o) => o.trim());
  if (parts.length > 1) return parts.includes(requestOrigin) ? requestOrigin : false;
  return origins;
}

/**
 * `strapi::cors` through the `cors` package, answering as Strapi's (@koa/cors) does: `Vary: Origin`
 * always; a refused origin gets no CORS headers (the browser then blocks the answer); an `OPTIONS`
 * without `Access-Control-Request-Method` is no preflight and goes on to the routes; a preflight
 * is answered 204; with `credentials`, `*` becomes the request's origin.
 */
export const cors: MiddlewareFactory = (config, { logger, config: service }) => {
  const settings: Record<string, unknown> = { ...DEFAULTS, ...config };
  if (config.enabled !== undefined)
    logger.warn('strapi::cors no longer supports `enabled`: remove strapi::cors from config/middlewares to disable it');
  const origin = settings.origin;
  if (typeof origin !== 'string' && typeof origin !== 'function' && !Array.isArray(origin))
    throw new ConfigError(service.middlewares.file, 'strapi::cors.origin', 'must be a string, an array or a function');
  const credentials = settings.credentials === true;
  const base: corsPackage.CorsOptions = {
    credentials,
    maxAge:
      typeof settings.maxAge === 'number' || typeof settings.maxAge === 'string' ? Number(settings.maxAge) : undefined,
    methods: list(settings.methods),
    allowedHeaders: list(settings.headers),
    exposedHeaders: list(settings.expose),
    optionsSuccessStatus: 204,
  };
  // the cors package's handler for each answered origin, made once (bounded: origins come from clients)
  const byOrigin = new Map<string, RequestHandler>();
  const corsFor = (answered: string): RequestHandler => {
    let made = byOrigin.get(answered);
    if (!made) {
      if (byOrigin.size >= 1000) byOrigin.clear();
      made = corsPackage({ ...base, origin: answered });
      byOrigin.set(answered, made);
    }
    return made;
  };
  const answer =
    (req: Request, res: Parameters<RequestHandler>[1], next: (err?: unknown) => void) => (allowed: string | false) => {
      if (allowed === false) {
        next();
        return;
      }
      const requestOrigin = req.get('Origin');
      const answered = credentials && allowed === '*' && requestOrigin ? requestOrigin : allowed;
      corsFor(answered)(req, res, (err?: unknown) => {
        // Strapi's answer to a request without Origin, credentials on: an empty allowed origin
        if (credentials && !requestOrigin) res.setHeader('Access-Control-Allow-Origin', '');
        next(err);
      });
    };
  const handler: RequestHandler = (req, res, next) => {
    res.vary('Origin');
    if (req.method === 'OPTIONS' && !req.get('Access-Control-Request-Method')) {
      next();
      return;
    }
    const allowed = allowedOrigin(origin as OriginSetting, req, res);
    if (allowed instanceof Promise) allowed.then(answer(req, res, next), next);
    else answer(req, res, next)(allowed);
  };
  return { handlers: [handler] };
};
