import responseTimePackage from 'response-time';
import type { MiddlewareFactory } from './types.js';

/** `strapi::responseTime`: `X-Response-Time: <ms>ms`, rounded up as Strapi does. */
export const responseTime: MiddlewareFactory = () => ({
  handlers: [
    responseTimePackage((_req, res, time) => {
      res.setHeader('X-Response-Time', `${Math.ceil(time)}ms`);
    }),
  ],
});
