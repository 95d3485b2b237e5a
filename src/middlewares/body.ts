import express, { type Request, type RequestHandler } from 'express';
import { bodyFileLimit } from '../config/index.js';
import { isMultipart, leaveMultipartUnread } from '../plugins/upload/index.js';
import { isAppMiddleware } from './custom.js';
import { noteBodyRead } from './koa-context.js';
import type { MiddlewareFactory } from './types.js';

type Limit = string | number;

function limit(value: unknown, fallback: Limit): Limit {
  return typeof value === 'string' || typeof value === 'number' ? value : fallback;
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"[^"]*"|[^;]*)/gi;

/**
 * koa-body decodes JSON and form bodies as UTF-8 whatever charset the request names; body-parser
 * refuses a charset it does not decode (415). The parser sees the type without its charset, and the
 * request keeps its header.
 */
function decodingAsUtf8(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const original = req.headers['content-type'];
    const plain = original?.replace(CHARSET_PARAMETER, '');
    if (original === undefined || plain === original) {
      parser(req, res, next);
      return;
    }
    req.headers['content-type'] = plain;
    parser(req, res, (err?: unknown) => {
      req.headers['content-type'] = original;
      next(err);
    });
  };
}

/** koa-body's key of a parsed body's raw text (`require('koa-body/unparsed.js')`). */
const UNPARSED = Symbol.for('unparsedBody');
const rawBodies = new WeakMap<Request, string>();

/** body-parser's hook on the bytes it read: kept for `includeUnparsed`. */
function keepRaw(req: Request, _res: unknown, buffer: Buffer, encoding: string): void {
  rawBodies.set(req, buffer.toString((encoding || 'utf8') as BufferEncoding));
}

/**
 * `includeUnparsed: true`, as koa-body: a JSON or form body keeps the text it was parsed from under
 * `Symbol.for('unparsedBody')` (what a Stripe webhook's signature check reads); a text body is the
 * text itself.
 */
const attachUnparsed: RequestHandler = (req, _res, next) => {
  const raw = rawBodies.get(req);
  if (raw !== undefined && typeof req.body === 'object' && req.body !== null)
    (req.body as Record<symbol, unknown>)[UNPARSED] = raw;
  next();
};

/**
 * `multipart: false`: multipart bodies are not read, as koa-body leaves them (the GraphQL endpoint
 * apart, which Strapi's body middleware skips: its uploads still work). A core create or update
 * then answers that the `data` field is missing, the upload route that files are empty.
 */
function multipartLeftUnread(graphqlEndpoint: string | null): RequestHandler {
  return (req, _res, next) => {
    if (isMultipart(req) && req.path !== graphqlEndpoint) leaveMultipartUnread(req);
    next();
  };
}

/**
 * `strapi::body`: JSON, url-encoded forms and text bodies, with Strapi's (koa-body's) limits
 * `jsonLimit` (1mb), `formLimit` (56kb), `textLimit` (56kb) and its switches `json`, `urlencoded`,
 * `text`, and `includeUnparsed`. Multipart bodies are left to the routes that take files, under its
 * `formidable.maxFileSize` (checked here, at start-up; see config/body-file-limit.ts), unless its
 * `multipart` is false.
 */
export const body: MiddlewareFactory = (config, { config: service, graphqlEndpoint }) => {
  bodyFileLimit(service);
  const handlers = [];
  const verify = config.includeUnparsed === true ? { verify: keepRaw } : {};
  if (config.multipart === false) handlers.push(multipartLeftUnread(graphqlEndpoint));
  if (config.json !== false)
    handlers.push(
      decodingAsUtf8(
        express.json({
          limit: limit(config.jsonLimit, '1mb'),
          // koa-body's strict mode: a body that is no object or array is a 400
          strict: true,
          type: ['application/json', 'application/*+json', 'application/csp-report'],
          ...verify,
        }),
      ),
    );
  if (config.urlencoded !== false)
    handlers.push(
      decodingAsUtf8(express.urlencoded({ extended: true, limit: limit(config.formLimit, '56kb'), ...verify })),
    );
  if (config.text !== false) handlers.push(express.text({ limit: limit(config.textLimit, '56kb'), type: 'text/*' }));
  if (config.includeUnparsed === true) handlers.push(attachUnparsed);
  // the app's middlewares after this one find `ctx.request.body` as koa-body leaves it: `{}` at least
  if (service.middlewares.entries.some(isAppMiddleware)) handlers.push(noteBodyRead);
  return { handlers };
};
