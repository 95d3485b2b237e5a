/**
 * Runs a Koa middleware `(ctx, next)` as an Express handler, as Strapi v4 runs an app's own
 * middlewares. `await next()` runs the rest of the Express chain and resolves once it answered:
 * while a Koa middleware waits, what the handlers downstream send (`res.json`, `res.send`,
 * `res.end`, `res.writeHead`) is kept instead of sent, so the code after `await next()` reads and
 * changes `ctx.status`, `ctx.body` and the headers; the outermost Koa middleware of the request
 * writes the answer once it returns. An answer written in pieces (`res.write`: files streamed from
 * `public/` or by the upload provider) goes out as it comes, and the code after `await next()`
 * finds it sent (`ctx.headerSent`). An error downstream rejects `next()`, as in Koa.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import createError from 'http-errors';
import { NotFoundError, fromStrapiUtilsError, isAppError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { createKoaContext, isStream, type KoaAnswer, type KoaContext } from './koa-context.js';
import { inRequestContext, noteKoaContext } from './request-context.js';

// what `next()` resolves to is whatever the rest of the chain returned (Strapi reads a handler's returned body)
export type KoaNext = () => Promise<unknown>;
export type KoaMiddleware = (ctx: KoaContext, next: KoaNext) => unknown;

/** A `next()` waiting for the handlers downstream to answer. */
interface Waiting {
  resolve(): void;
  reject(err: unknown): void;
}

/** The Koa side of one request: its context, the answer kept so far, the `next()` calls waiting (innermost last). */
interface Exchange {
  ctx: KoaContext;
  answer: KoaAnswer;
  waiting: Waiting[];
  /** the answer went out in pieces: nothing is kept any more */
  streamed: boolean;
  /** puts back the response's own methods */
  restore(): void;
}

const exchanges = new WeakMap<Request, Exchange>();
/** errors the Express chain handed to a waiting `next()`: answered as they would be without the Koa middleware */
const downstreamErrors = new WeakSet<object>();

const EMPTY_STATUSES = new Set([204, 205, 304]);
const INTERCEPTED = ['json', 'end', 'write', 'writeHead'] as const;

function remove(list: Waiting[], item: Waiting): boolean {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
  return at >= 0;
}

/** `writeHead(status, [message], [headers])` kept as the status and headers it sets. */
function keepHead(res: Response, status: unknown, rest: unknown[]): void {
  if (typeof status === 'number') res.statusCode = status;
  const headers = rest.find((arg) => typeof arg === 'object' && arg !== null);
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), String(headers[i + 1]));
  } else if (headers) {
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) res.setHeader(name, Array.isArray(value) ? value.map(String) : String(value));
  }
}

/** The body `res.end(chunk, encoding)` was given: a string, bytes, or an empty body. */
function endBody(chunk: unknown, encoding: unknown): unknown {
  if (typeof chunk === 'string') {
    return typeof encoding === 'string' && Buffer.isEncoding(encoding) && !/^utf-?8$/i.test(encoding)
      ? Buffer.from(chunk, encoding)
      : chunk;
  }
  return chunk instanceof Uint8Array ? chunk : '';
}

/**
 * Starts holding back the request's answer: the response's methods are replaced by ones that keep
 * what they are given. A handler downstream may wrap them in turn (`compression` placed after a Koa
 * middleware): `restore` then leaves its wrapper, and ours pass through to the originals.
 */
function open(req: Request, res: Response): Exchange {
  const answer: KoaAnswer = { body: undefined, explicitStatus: false };
  const before = INTERCEPTED.map((name) => [name, Object.getOwnPropertyDescriptor(res, name)] as const);
  const original = { json: res.json, end: res.end, write: res.write, writeHead: res.writeHead };
  const ours = new Map<string, unknown>();
  let holding = true;
  const exchange: Exchange = {
    ctx: createKoaContext(req, res, answer),
    answer,
    waiting: [],
    streamed: false,
    restore() {
      holding = false;
      for (const [name, descriptor] of before) {
        if (Object.getOwnPropertyDescriptor(res, name)?.value !== ours.get(name)) continue;
        if (descriptor) Object.defineProperty(res, name, descriptor);
        else Reflect.deleteProperty(res, name);
      }
    },
  };
  const intercept = (name: (typeof INTERCEPTED)[number], hold: (...args: unknown[]) => unknown) => {
    const fn = (...args: unknown[]): unknown => (holding ? hold(...args) : Reflect.apply(original[name], res, args));
    ours.set(name, fn);
    Object.defineProperty(res, name, { value: fn, writable: true, configurable: true });
  };
  // the handlers downstream answer once: that resolves the innermost waiting next()
  let answeredOnce = false;
  const answered = (body: unknown) => {
    if (answeredOnce) return;
    answeredOnce = true;
    answer.body = body;
    answer.explicitStatus = true;
    exchange.waiting.pop()?.resolve();
  };
  intercept('json', (body) => {
    if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
    answered(body);
    return res;
  });
  intercept('writeHead', (status, ...rest) => {
    keepHead(res, status, rest);
    return res;
  });
  intercept('end', (chunk, encoding) => {
    answered(endBody(chunk, encoding));
    return res;
  });
  intercept('write', (...args) => {
    // an answer in pieces goes out as it comes
    exchange.streamed = true;
    exchange.restore();
    answered(undefined);
    return Reflect.apply(original.write, res, args);
  });
  exchanges.set(req, exchange);
  noteKoaContext(req, exchange.ctx);
  return exchange;
}

/** Writes the answer the Koa middlewares left, as Koa's `respond` does. */
function respond(exchange: Exchange, req: Request, res: Response): void {
  const { answer } = exchange;
  if (!answer.explicitStatus) {
    // nothing answered: Strapi's error middleware says 404
    res.removeHeader('Content-Type');
    res.status(404).json(new NotFoundError().toBody());
    return;
  }
  if (EMPTY_STATUSES.has(res.statusCode)) {
    for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) res.removeHeader(name);
    res.end();
    return;
  }
  const { body } = answer;
  if (isStream(body)) {
    body.pipe(res);
    return;
  }
  let bytes: string | Uint8Array;
  if (body === null) bytes = '';
  else if (body === undefined) {
    bytes = res.statusMessage || STATUS_CODES[res.statusCode] || String(res.statusCode);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  } else if (typeof body === 'string' || body instanceof Uint8Array) bytes = body;
  else bytes = JSON.stringify(body);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(bytes));
  res.end(bytes);
}

/**
 * The answer, or, when its body cannot be written (JSON with a cycle, a `BigInt`), Koa's own answer
 * to an error thrown while it responds: a plain-text 500 `Internal Server Error`, the error logged.
 * The process goes on serving (an unhandled rejection would stop it).
 */
function respondOr500(exchange: Exchange, req: Request, res: Response, logger: Logger): void {
  const { body } = exchange.answer;
  // a handler that set `ctx.body` to a promise it did not await (strapi-plugin-redirects 1.0.4's
  // content-type routes): Koa writes it as `{}`, as here; its rejection is logged, never left
  // unhandled to stop the process
  if (body instanceof Promise)
    body.catch((err: unknown) =>
      logger.error({ err, method: req.method, url: req.originalUrl }, 'the promise set as the body rejected'),
    );
  try {
    respond(exchange, req, res);
  } catch (err) {
    logger.error({ err, method: req.method, url: req.originalUrl }, 'the answer could not be written');
    if (res.headersSent) return;
    const text = STATUS_CODES[500] ?? 'Internal Server Error';
    res.removeHeader('Content-Length');
    res.status(500).type('text/plain; charset=utf-8').send(text);
  }
}

/** A status an error carries (Koa's `ctx.throw`, http-errors, `err.status = 4xx`), when it is an HTTP error status. */
function statusOf(err: unknown): number | undefined {
  const { status, statusCode } = (err ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599 ? value : undefined;
}

/**
 * Whether http-errors made `err` (an instance of its `HttpError`, from any copy of the package:
 * the service's, the project's, `@strapi/utils`'). Koa's `ctx.throw(500, err)` only stamps a status
 * on the app's own error, which then passes http-errors' duck-typed `isHttpError` but is none.
 */
function madeByHttpErrors(err: unknown): boolean {
  for (let proto: unknown = Object.getPrototypeOf(err); proto; proto = Object.getPrototypeOf(proto))
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === 'HttpError') return true;
  return false;
}

/**
 * What Strapi's error middleware answers to an error with an HTTP status: an http-errors error
 * (Koa's `ctx.throw(status, message)`, which `@strapi/utils` exports as `HttpError`) with its own
 * name, message and `details`; any other error carrying a status (`ctx.throw(500, err)` stamps one
 * on the app's error) with its message when it is a client error, else the status's own, and logged
 * (Strapi's formatInternalError: only what http-errors would expose is shown).
 */
function httpErrorAnswer(err: unknown, status: number, log: () => void): Record<string, unknown> {
  const made = madeByHttpErrors(err);
  const shown = made || status < 500;
  if (!made) log();
  const source = (shown ? err : createError(status)) as { name?: unknown; message?: unknown; details?: unknown };
  return { data: null, error: { status, name: source.name, message: source.message, details: source.details } };
}

function answerError(err: unknown, req: Request, res: Response, errors: ErrorRequestHandler, logger: Logger): void {
  if (res.headersSent) {
    logger.error({ err, method: req.method, url: req.originalUrl }, 'middleware error after the answer was sent');
    return;
  }
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Length');
  const downstream = typeof err === 'object' && err !== null && downstreamErrors.has(err);
  const error = downstream ? err : fromStrapiUtilsError(err);
  const status = downstream || isAppError(error) ? undefined : statusOf(error);
  if (status === undefined) {
    errors(error, req, res, () => {});
    return;
  }
  const log = () => logger.error({ err, method: req.method, url: req.originalUrl }, 'middleware error');
  res.status(status).json(httpErrorAnswer(error, status, log));
}

/**
 * The Express handler of one Koa middleware. `current()` is the middleware once its factory ran
 * (null: the factory gave none, so the request passes on, as Strapi skips it). `errors` answers
 * errors as `strapi::errors` does.
 */
export function koaHandler(
  name: string,
  current: () => KoaMiddleware | null | undefined,
  errors: ErrorRequestHandler,
  logger: Logger,
  /** what the request needs before the middleware sees it (the app's handlers: a multipart body read) */
  prepare?: (req: Request, res: Response) => Promise<void>,
): RequestHandler {
  if (prepare) {
    const run = koaHandler(name, current, errors, logger);
    return (req, res, next) => {
      prepare(req, res).then(
        () => run(req, res, next),
        (err: unknown) => next(err),
      );
    };
  }
  return (req, res, next) => {
    const middleware = current();
    if (middleware === null) {
      next();
      return;
    }
    if (middleware === undefined) {
      next(new Error(`middleware ${name} was not started`));
      return;
    }
    const exchange = exchanges.get(req) ?? open(req, res);
    const outer = exchange.waiting.at(-1);
    let own: Waiting | undefined;
    const koaNext: KoaNext = () => {
      if (own) return Promise.reject(new Error('next() called multiple times'));
      return new Promise<void>((resolve, reject) => {
        own = { resolve, reject };
        exchange.waiting.push(own);
        next();
      });
    };
    const finish = (failed: boolean, err?: unknown) => {
      if (own) remove(exchange.waiting, own);
      if (outer) {
        // an inner Koa middleware: its end is the answer the outer one waits for
        if (!remove(exchange.waiting, outer)) {
          if (failed) logger.error({ err, method: req.method, url: req.originalUrl }, `middleware ${name} failed`);
          return;
        }
        if (failed) outer.reject(err);
        else outer.resolve();
        return;
      }
      exchange.restore();
      exchanges.delete(req);
      if (failed) answerError(err, req, res, errors, logger);
      else if (!exchange.streamed && !res.headersSent) respondOr500(exchange, req, res, logger);
    };
    void new Promise<unknown>((resolve) =>
      resolve(inRequestContext(req, () => middleware(exchange.ctx, koaNext))),
    ).then(
      () => finish(false),
      (err: unknown) => finish(true, err),
    );
  };
}

/**
 * First of the error handlers: an error raised downstream of a Koa middleware that waits in
 * `next()` rejects that `next()`; the error reaches the next handler otherwise.
 */
export const handOffToKoa: ErrorRequestHandler = (err, req, _res, next) => {
  const waiting = exchanges.get(req)?.waiting.pop();
  if (!waiting) {
    next(err);
    return;
  }
  if (typeof err === 'object' && err !== null) downstreamErrors.add(err);
  waiting.reject(err);
};
