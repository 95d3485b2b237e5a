import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  AppError,
  HttpError,
  InternalServerError,
  NotFoundError,
  fromStrapiUtilsError,
  isAppError,
} from '../errors/index.js';
import { databaseRefusal } from '../database/database-errors.js';
import type { Logger } from '../logger.js';

interface HttpParserError {
  type?: string;
  status?: unknown;
  expose?: unknown;
  message?: unknown;
  /** the raw body of a body that could not be parsed */
  body?: unknown;
  /** the Content-Encoding body-parser cannot inflate */
  encoding?: unknown;
}

/** Where koa-body's strict mode lets a JSON body start: an object or an array. */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

/**
 * Strapi's answer to a JSON body it cannot parse: JSON.parse's own message, or its strict mode's
 * for a body that is no object or array (named `Error` by the REST body parser, `SyntaxError` by
 * the GraphQL endpoint's).
 */
function bodySyntaxError(raw: string, onGraphQL: boolean): HttpError {
  if (!OBJECT_OR_ARRAY.test(raw))
    return new HttpError(400, onGraphQL ? 'SyntaxError' : 'Error', 'invalid JSON, only supports object and array');
  try {
    JSON.parse(raw);
  } catch (err) {
    if (err instanceof SyntaxError) return new HttpError(400, 'SyntaxError', err.message);
  }
  return new HttpError(400, 'SyntaxError', 'Invalid JSON');
}

function toAppError(err: unknown, onGraphQL: boolean): AppError | undefined {
  if (isAppError(err)) return err;
  // thrown by a package's own @strapi/utils where no route of the app's code converted it (an
  // upload provider's PayloadTooLargeError, as @strapi/provider-upload-cloudinary throws)
  const strapiError = fromStrapiUtilsError(err);
  if (isAppError(strapiError)) return strapiError;
  const refusal = databaseRefusal(err);
  if (refusal) return refusal;
  const parserError = err as HttpParserError;
  if (parserError?.type === 'entity.parse.failed')
    return bodySyntaxError(typeof parserError.body === 'string' ? parserError.body : '', onGraphQL);
  // raw-body's and inflation's own messages, which koa-body passes on
  if (parserError?.type === 'entity.too.large')
    return new HttpError(413, 'PayloadTooLargeError', 'request entity too large');
  if (parserError?.type === 'encoding.unsupported')
    return new HttpError(415, 'Error', `Unsupported Content-Encoding: ${parserError.encoding ?? ''}`);
  return clientHttpError(err);
}

/**
 * Any other 4xx raised by Express or body-parser (http-errors style `status`): its status and
 * Strapi's name for it (`BadRequestError`...), its message only where it is meant for the client.
 */
function clientHttpError(err: unknown): AppError | undefined {
  const { status, expose, message } = (err ?? {}) as HttpParserError;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const reason = STATUS_CODES[status] ?? 'Bad Request';
  const name = `${reason.replace(/[^A-Za-z0-9]/g, '')}Error`;
  return new AppError(status, name, expose === true && typeof message === 'string' ? message : reason);
}

/** Every error leaves as JSON in Strapi's shape; unexpected ones are a 500 without details, logged in full. */
export function errorMiddleware(logger: Logger, graphqlEndpoint: string | null = null): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err, graphqlEndpoint !== null && req.path === graphqlEndpoint);
    if (appError) {
      // the database unreachable or refusing writes: the operator needs to know, not only the client
      if (appError.status >= 500)
        logger.warn(
          { err, reqId: (req as { id?: unknown }).id, method: req.method, url: req.originalUrl },
          appError.message,
        );
      res.status(appError.status).json(appError.toBody());
      return;
    }
    logger.error(
      { err, reqId: (req as { id?: unknown }).id, method: req.method, url: req.originalUrl },
      'unexpected error',
    );
    res.status(500).json(new InternalServerError().toBody());
  };
}

/** The methods of app routes whose path a request matched though none of its method did (koa-router's `allowedMethods`). */
const pathMethods = new WeakMap<object, string[]>();

/** Notes that the request's path is an app route's with other methods: answered 405 unless a later route serves it. */
export function notePathMethods(req: object, methods: readonly string[]): void {
  pathMethods.set(req, [...new Set([...(pathMethods.get(req) ?? []), ...methods])]);
}

/**
 * The public files' route (`GET /(.*)` on Strapi) as the last route a request meets: it serves any
 * GET (an unknown file is a 404), and answers another method 405 with its own `Allow` unless an
 * app route's path already did (koa-router's innermost `allowedMethods` decides).
 */
export function notePublicRoute(req: { method: string }): void {
  if (req.method === 'GET' || req.method === 'HEAD') pathMethods.delete(req);
  else if (!pathMethods.has(req)) pathMethods.set(req, ['HEAD', 'GET']);
}

export const notFound: RequestHandler = (req, res) => {
  const methods = pathMethods.get(req);
  if (methods && methods.length > 0) {
    res.setHeader(
      'Allow',
      (methods.includes('GET') && !methods.includes('HEAD') ? ['HEAD', ...methods] : methods).join(', '),
    );
    if (req.method === 'OPTIONS') res.status(200).type('text/plain').send('');
    else res.status(405).type('text/plain').send('Method Not Allowed');
    return;
  }
  res.status(404).json(new NotFoundError().toBody());
};

/** The methods a route serves, as koa-router lists them in `Allow` (`HEAD, GET, PUT, DELETE`). */
function allowedMethods(route: unknown): string {
  const methods = Object.keys((route as { methods?: Record<string, boolean> } | undefined)?.methods ?? {})
    .filter((m) => m !== '_all')
    .map((m) => m.toUpperCase());
  return (methods.includes('GET') ? ['HEAD', ...methods] : methods).join(', ');
}

/**
 * A known path with a method it does not serve: plain text 405 with `Allow`, as Strapi (koa-router)
 * answers; an `OPTIONS` that no CORS preflight answered gets 200 with `Allow`.
 */
export const methodNotAllowed: RequestHandler = (req, res) => {
  res.setHeader('Allow', allowedMethods(req.route));
  if (req.method === 'OPTIONS') {
    res.status(200).type('text/plain').send('');
    return;
  }
  res.status(405).type('text/plain').send('Method Not Allowed');
};
