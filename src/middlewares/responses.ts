import { ConfigError } from '../config/index.js';
import type { MiddlewareFactory } from './types.js';

/** `strapi::responses`: accepted without `handlers`; its handlers are Koa functions, which the service cannot run. */
export const responses: MiddlewareFactory = (config, { config: service }) => {
  const handlers = config.handlers;
  if (handlers && typeof handlers === 'object' && Object.keys(handlers).length > 0)
    throw new ConfigError(
      service.middlewares.file,
      'strapi::responses.handlers',
      'status handlers are Koa functions, which Content Service cannot run: remove them',
    );
  return {};
};
