import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { isHealthCheck } from '../rest/health.js';
import type { MiddlewareFactory } from './types.js';

/** What the line says of the request, taken as it arrives (routers rewrite `req.url` on the way). */
interface RequestLine {
  id: string;
  method: string | undefined;
  url: string | undefined;
}

/** The one line of a request, as pino-http writes it: `{ req: { id, method, url }, res: { statusCode }, responseTime }`. */
function logRequest(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  request: RequestLine & { health: boolean; startedAt: number },
): void {
  const { statusCode } = res;
  const { health, startedAt, ...line } = request;
  // load balancers poll /_health every few seconds: below info, unless it fails
  const level = health ? (statusCode >= 500 ? 'warn' : 'debug') : 'info';
  if (!log.isLevelEnabled(level)) return;
  const fields = {
    req: line,
    res: { statusCode },
    ...(statusCode >= 500 ? { err: new Error(`failed with status code ${statusCode}`) } : {}),
    responseTime: Date.now() - startedAt,
  };
  const message =
    statusCode >= 500
      ? 'request errored'
      : !req.readableAborted && res.writableEnded
        ? 'request completed'
        : 'request aborted';
  log[level](fields, message);
}

/**
 * `strapi::logger`: one short line per request (method, url, status, time), as Strapi logs; no
 * headers; none in tests. The line pino-http writes, without pino-http: it builds a child logger
 * per request (serializing the request up front, for a `req.log` nothing here uses), which cost
 * more than the line itself on small reads.
 */
export const logger: MiddlewareFactory = (_config, { logger: log, config }) => {
  if (config.env === 'test') return {};
  const handler: RequestHandler = (req, res, next) => {
    const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    const request = { id, method: req.method, url: req.url, health: isHealthCheck(req), startedAt: Date.now() };
    // 'close' follows 'finish' on every response, and comes alone when the client went away
    res.once('close', () => logRequest(log, req, res, request));
    next();
  };
  return { handlers: [handler] };
};
