import { randomUUID } from 'node:crypto';
import { pinoHttp } from 'pino-http';
import { isHealthCheck } from '../rest/health.js';
import type { MiddlewareFactory } from './types.js';

/** `strapi::logger`: one short line per request (method, url, status, time), as Strapi logs; no headers. */
export const logger: MiddlewareFactory = (_config, { logger: log, config }) => ({
  handlers: [
    pinoHttp({
      logger: log,
      genReqId: (req) => (req.headers['x-request-id'] as string | undefined) ?? randomUUID(),
      autoLogging: config.env !== 'test',
      // load balancers poll /_health every few seconds: below info, unless it fails
      customLogLevel: (req, res) => (isHealthCheck(req) ? (res.statusCode >= 500 ? 'warn' : 'debug') : 'info'),
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  ],
});
