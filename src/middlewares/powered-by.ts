import type { MiddlewareFactory } from './types.js';

/** `strapi::poweredBy`: `X-Powered-By: Strapi <strapi.io>` (or `config.poweredBy`) on every answer past it. */
export const poweredBy: MiddlewareFactory = (config) => {
  const value = typeof config.poweredBy === 'string' ? config.poweredBy : 'Strapi <strapi.io>';
  return {
    handlers: [
      (_req, res, next) => {
        res.setHeader('X-Powered-By', value);
        next();
      },
    ],
  };
};
