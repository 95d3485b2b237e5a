import { ConfigError } from '../config/index.js';
import { koaHandler, type KoaMiddleware } from './koa-bridge.js';
import type { MiddlewareFactory } from './types.js';

/**
 * `strapi::responses`: as Strapi v4's, after the rest of the chain answered, the handler of the
 * answer's status (`config.handlers[404]`), a Koa function `(ctx, next)`, runs and may change the
 * answer (its body, headers, status). A status without a function is left as it is, as in Strapi.
 */
export const responses: MiddlewareFactory = (config, { config: service, errors, logger }) => {
  const { handlers } = config;
  if (handlers === undefined || handlers === null) return {};
  if (typeof handlers !== 'object' || Array.isArray(handlers))
    throw new ConfigError(
      service.middlewares.file,
      'strapi::responses.handlers',
      'must be an object of status codes to functions (ctx, next)',
    );
  const byStatus = handlers as Record<string, unknown>;
  const middleware: KoaMiddleware = async (ctx, next) => {
    await next();
    const handler = byStatus[String(ctx.status)];
    if (typeof handler === 'function') await (handler as KoaMiddleware)(ctx, next);
  };
  return { handlers: [koaHandler('strapi::responses', () => middleware, errors, logger)] };
};
