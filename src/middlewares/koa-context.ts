/**
 * A Koa-like `ctx` over Express's `req` and `res`, for the app's own middlewares: what Strapi v4
 * apps commonly read and write (`ctx.request`, `ctx.response`, their shortcuts, `ctx.state`,
 * `ctx.throw`, `ctx.redirect`, `ctx.cookies`, Strapi's `ctx.badRequest`… helpers). Headers and the
 * status live on `res`; the body lives in the `KoaAnswer` until the bridge writes it.
 */
import { STATUS_CODES } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import createError from 'http-errors';
import camelCase from 'lodash/camelCase.js';
import { contentType } from 'mime-types';
import { requestAuth } from '../operations/request-context.js';
import { requestRoute } from '../operations/request-route.js';
import { stateUser } from '../access/auth-state.js';
import { koaCookies, type KoaCookies } from './koa-cookies.js';
import { replaceSession, sessionOf, type SessionData } from './session-store.js';
import { filesOf, type RequestFiles } from './koa-multipart.js';

/** What a Koa response holds that Express keeps nowhere: the body and whether a status was chosen. */
export interface KoaAnswer {
  body: unknown;
  /** a status or a body was set (Strapi's error middleware answers 404 otherwise) */
  explicitStatus: boolean;
}

type HeaderValue = string | number | readonly string[];
/** `ctx.throw(status, message, properties)`, as http-errors takes them */
type ThrowArgument = string | Error | Record<string, unknown>;
type ErrorHelper = (message?: string, details?: Record<string, unknown>) => void;

export interface KoaRequest {
  method: string;
  url: string;
  readonly originalUrl: string;
  path: string;
  query: Record<string, unknown>;
  readonly querystring: string;
  readonly header: Request['headers'];
  readonly headers: Request['headers'];
  body: unknown;
  /** a multipart request's files, by field (koa-body's `ctx.request.files`) */
  readonly files: RequestFiles | undefined;
  readonly ip: string;
  readonly ips: string[];
  readonly host: string;
  readonly hostname: string;
  readonly protocol: string;
  readonly secure: boolean;
  readonly origin: string;
  readonly href: string;
  /** `?` and the query string, or '' */
  readonly search: string;
  readonly URL: URL | Record<string, never>;
  readonly subdomains: string[];
  /** a GET or HEAD whose answer (2xx or 304) the client's cache still holds (If-None-Match, If-Modified-Since) */
  readonly fresh: boolean;
  readonly stale: boolean;
  readonly idempotent: boolean;
  readonly socket: Request['socket'];
  /** the request body's media type without parameters, its charset, its Content-Length */
  readonly type: string;
  readonly charset: string;
  readonly length: number | undefined;
  get(name: string): string;
  is(...types: string[]): string | false | null;
  accepts(...types: string[]): string | false | string[];
  acceptsEncodings(...encodings: string[]): string | false | string[];
  acceptsCharsets(...charsets: string[]): string | false | string[];
  acceptsLanguages(...languages: string[]): string | false | string[];
}

export interface KoaResponse {
  status: number;
  readonly message: string;
  body: unknown;
  type: string;
  readonly header: Record<string, HeaderValue | undefined>;
  readonly headers: Record<string, HeaderValue | undefined>;
  readonly headerSent: boolean;
  /** Koa's: the ETag header (quoted when set unquoted), Last-Modified as a Date, Content-Length */
  etag: string;
  lastModified: Date | undefined;
  length: number | undefined;
  readonly writable: boolean;
  readonly socket: Response['socket'];
  vary(field: string): void;
  has(name: string): boolean;
  attachment(filename?: string): void;
  flushHeaders(): void;
  get(name: string): HeaderValue | '';
  set(name: string | Record<string, HeaderValue>, value?: HeaderValue): void;
  append(name: string, value: HeaderValue): void;
  remove(name: string): void;
  redirect(url: string, alt?: string): void;
  /** Strapi's helpers, on Koa's response (the context delegates to them): `send`, `created`, `deleted`, `badRequest`… */
  send(data: unknown, status?: number): void;
  created(data: unknown): void;
  deleted(data?: unknown): void;
  badRequest: ErrorHelper;
  unauthorized: ErrorHelper;
  forbidden: ErrorHelper;
  notFound: ErrorHelper;
}

/** What a Strapi app reads of Koa's `ctx.app`: the application's settings. */
export interface KoaAppView {
  /** `NODE_ENV`, or 'development' */
  readonly env: string;
  /** trust `X-Forwarded-*` (`config/server` `proxy`) */
  proxy: boolean;
  /** `config/server` `app.keys`, which sign cookies */
  readonly keys: string[];
  readonly subdomainOffset: number;
  readonly proxyIpHeader: string;
  readonly maxIpsCount: number;
}

/** The Koa app view of each Express app (set once by the service that built it). */
const koaApps = new WeakMap<object, KoaAppView>();

export function setKoaAppView(expressApp: object, view: KoaAppView): void {
  // as Koa's application.toJSON: its signing keys are never written out
  hiddenMethod(view, 'toJSON', () => ({ subdomainOffset: view.subdomainOffset, proxy: view.proxy, env: view.env }));
  koaApps.set(expressApp, view);
}

/** Koa's defaults, for a request of an app that set no view (a bare Express app in a unit test). */
function defaultKoaApp(): KoaAppView {
  return {
    env: process.env.NODE_ENV || 'development',
    proxy: false,
    keys: [],
    subdomainOffset: 2,
    proxyIpHeader: 'X-Forwarded-For',
    maxIpsCount: 0,
  };
}

export interface KoaContext
  extends
    Omit<KoaRequest, 'body' | 'type' | 'length' | 'charset' | 'socket' | 'header' | 'headers'>,
    Omit<KoaResponse, 'header' | 'headers' | 'get'> {
  readonly req: Request;
  readonly res: Response;
  /** Koa's application: `env`, `proxy`, `keys` */
  readonly app: KoaAppView;
  readonly request: KoaRequest;
  readonly response: KoaResponse;
  readonly header: Request['headers'];
  readonly headers: Request['headers'];
  /** shared by every middleware of the request */
  state: Record<string, unknown>;
  /** the path parameters of the app's route that matched (`/:id`), set by its router */
  params: Record<string, string>;
  cookies: KoaCookies;
  /** koa-session's, with `strapi::session` (session.ts); undefined without it */
  session: SessionData | undefined;
  throw(first?: number | ThrowArgument, ...rest: ThrowArgument[]): never;
  assert(value: unknown, status?: number, message?: string): void;
}

const EMPTY_STATUSES = new Set([204, 205, 304]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);
/** the request's members Koa's context does not delegate: `ctx.body`, `ctx.type` and `ctx.length` are the response's */
const REQUEST_ONLY = new Set(['body', 'type', 'length', 'charset']);
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 305, 307, 308]);

/** Koa's content types of a body set without one: text or HTML for a string, bytes for a Buffer, JSON for the rest. */
function typeOfBody(value: unknown): string {
  if (typeof value === 'string') return /^\s*</.test(value) ? 'html' : 'text';
  if (Buffer.isBuffer(value) || isStream(value)) return 'bin';
  return 'json';
}

export function isStream(value: unknown): value is NodeJS.ReadableStream {
  return typeof (value as { pipe?: unknown } | null)?.pipe === 'function';
}

/** Requests a `strapi::body` parser has seen: there Koa's `ctx.request.body` is `{}` when no body was parsed. */
const bodyRead = new WeakSet<Request>();

export const noteBodyRead: RequestHandler = (req, _res, next) => {
  bodyRead.add(req);
  next();
};

function requestBody(req: Request): unknown {
  const holder = req as { body?: unknown };
  if (holder.body === undefined && bodyRead.has(req)) holder.body = {};
  return holder.body;
}

/** Express's `req.query` is parsed anew on every read: pinned once, so an edit reaches the routes. */
function pinnedQuery(req: Request): Record<string, unknown> {
  const own = Object.getOwnPropertyDescriptor(req, 'query');
  if (own && 'value' in own) return own.value as Record<string, unknown>;
  const value = { ...(req.query as Record<string, unknown>) };
  setQuery(req, value);
  return value;
}

function setQuery(req: Request, value: Record<string, unknown>): void {
  Object.defineProperty(req, 'query', { value, writable: true, configurable: true, enumerable: true });
}

/**
 * `ctx.state`, one per request: `user` is the user the route authenticated and `route` the route
 * it matched (so both are there after `await next()`, as in Strapi) unless a middleware sets its own.
 */
function requestState(req: Request): Record<string, unknown> {
  let own: { user: unknown } | undefined;
  // the route the request matched (request-route.ts), one copy per request, unless code sets its own
  let route: { value: unknown } | undefined;
  return Object.defineProperties(
    {},
    {
      user: {
        enumerable: true,
        configurable: true,
        get: () => (own ? own.user : stateUser(requestAuth(req))),
        set: (user: unknown) => {
          own = { user };
        },
      },
      route: {
        enumerable: true,
        configurable: true,
        get: () => {
          if (route) return route.value;
          // not kept while there is none: the route is matched after the global middlewares start
          const found = requestRoute(req);
          if (found) route = { value: found };
          return found;
        },
        set: (value: unknown) => {
          route = { value };
        },
      },
    },
  );
}

/** Strapi's response helper of each 4xx and 5xx status, by name: `badRequest` → 400, `notFound` → 404… */
const ERROR_HELPERS: ReadonlyArray<readonly [string, number]> = Object.keys(STATUS_CODES)
  .map(Number)
  .filter((code) => code >= 400 && code <= 599)
  .map((code) => [camelCase(STATUS_CODES[code]), code] as const);

/**
 * `ctx.badRequest(message, details)` and the others: the status and Strapi's error body
 * `{ data: null, error: { status, name, message, details } }`.
 */
function errorHelpers(answer: (status: number, body: unknown) => void): Record<string, ErrorHelper> {
  const helpers: Record<string, ErrorHelper> = {};
  for (const [name, code] of ERROR_HELPERS)
    helpers[name] = (message, details = {}) => {
      const err = createError(code, message ?? STATUS_CODES[code] ?? '');
      answer(code, { data: null, error: { status: code, name: err.name, message: err.message, details } });
    };
  return helpers;
}

/** A method that `Object.keys` and the spread leave out, as Koa's prototype methods. */
function hiddenMethod(target: object, name: string, method: () => unknown): void {
  Object.defineProperty(target, name, { value: method, enumerable: false, configurable: true, writable: true });
}

/** The Koa-like context of one request; `answer` holds its body until it is written. */
export function createKoaContext(req: Request, res: Response, answer: KoaAnswer): KoaContext {
  let url: string | undefined;
  const currentUrl = () => url ?? req.originalUrl;
  const setHeader = (name: string, value: HeaderValue) => {
    if (res.headersSent) return;
    res.setHeader(name, Array.isArray(value) ? value.map(String) : String(value));
  };
  const setStatus = (code: number) => {
    if (!Number.isInteger(code) || code < 100 || code > 999) throw new TypeError(`invalid status code: ${code}`);
    if (res.headersSent) return;
    answer.explicitStatus = true;
    res.statusCode = code;
    if (EMPTY_STATUSES.has(code)) answer.body = null;
  };
  const setBody = (value: unknown) => {
    answer.body = value;
    // an answer already streamed keeps its headers
    if (res.headersSent) return;
    if (value === null || value === undefined) {
      if (!EMPTY_STATUSES.has(res.statusCode)) setStatus(204);
      for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) res.removeHeader(name);
      return;
    }
    if (!answer.explicitStatus) setStatus(200);
    res.removeHeader('Content-Length');
    const type = typeOfBody(value);
    if (type === 'json' || !res.hasHeader('Content-Type')) setType(type);
  };
  const setType = (type: string) => {
    const full = contentType(type);
    if (full) setHeader('Content-Type', full);
    else res.removeHeader('Content-Type');
  };
  const getHeader = (name: string): HeaderValue | '' => {
    const value = res.getHeader(name);
    return value === undefined ? '' : value;
  };
  const redirect = (to: string, alt?: string) => {
    const target = to === 'back' ? (req.get('Referrer') ?? alt ?? '/') : to;
    setHeader('Location', encodeURI(target));
    if (!REDIRECT_STATUSES.has(res.statusCode) || !answer.explicitStatus) setStatus(302);
    setBody(`Redirecting to ${target}.`);
  };
  const pathOf = () => currentUrl().split('?')[0] ?? '/';
  const querystringOf = () => {
    const at = currentUrl().indexOf('?');
    return at < 0 ? '' : currentUrl().slice(at + 1);
  };

  const request: KoaRequest = {
    get method() {
      return req.method;
    },
    set method(value) {
      req.method = value;
    },
    get url() {
      return currentUrl();
    },
    set url(value) {
      url = value;
      req.url = value;
    },
    get originalUrl() {
      return req.originalUrl;
    },
    get path() {
      return pathOf();
    },
    set path(value) {
      const query = querystringOf();
      request.url = query ? `${value}?${query}` : value;
    },
    get query() {
      return pinnedQuery(req);
    },
    set query(value) {
      setQuery(req, value);
    },
    get querystring() {
      return querystringOf();
    },
    get header() {
      return req.headers;
    },
    get headers() {
      return req.headers;
    },
    get body() {
      return requestBody(req);
    },
    set body(value) {
      (req as { body?: unknown }).body = value;
    },
    /** a multipart request's files, read for the app's handlers (koa-multipart.ts) */
    get files() {
      return filesOf(req);
    },
    get ip() {
      return req.ip ?? req.socket.remoteAddress ?? '';
    },
    get ips() {
      return req.ips;
    },
    get host() {
      return req.get('host') ?? '';
    },
    get hostname() {
      return req.hostname;
    },
    get protocol() {
      return req.protocol;
    },
    get secure() {
      return req.secure;
    },
    get origin() {
      return `${req.protocol}://${request.host}`;
    },
    get href() {
      return `${request.origin}${currentUrl()}`;
    },
    get search() {
      const query = querystringOf();
      return query ? `?${query}` : '';
    },
    get URL() {
      try {
        return new URL(request.href);
      } catch {
        return {};
      }
    },
    get subdomains() {
      return req.subdomains;
    },
    get fresh() {
      // Express's req.fresh, for the methods and statuses Koa asks it for (an unset status is Koa's 404)
      const status = response.status;
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      return ((status >= 200 && status < 300) || status === 304) && req.fresh;
    },
    get stale() {
      return !request.fresh;
    },
    get idempotent() {
      return IDEMPOTENT_METHODS.has(req.method);
    },
    get socket() {
      return req.socket;
    },
    get type() {
      return (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    },
    get charset() {
      return (
        /;\s*charset=([^;]+)/i
          .exec(req.headers['content-type'] ?? '')?.[1]
          ?.trim()
          .toLowerCase() ?? ''
      );
    },
    get length() {
      const value = req.headers['content-length'];
      return value === undefined || value === '' ? undefined : Number(value);
    },
    get: (name) => {
      const lower = name.toLowerCase();
      const value = lower === 'referer' || lower === 'referrer' ? req.headers.referer : req.headers[lower];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    },
    is: (...types) => req.is(types),
    accepts: (...types) => (types.length === 0 ? req.accepts() : req.accepts(types)),
    acceptsEncodings: (...encodings) => req.acceptsEncodings(encodings),
    acceptsCharsets: (...charsets) => req.acceptsCharsets(charsets),
    acceptsLanguages: (...languages) => req.acceptsLanguages(languages),
  };

  type StrapiHelperName = 'send' | 'created' | 'deleted' | 'badRequest' | 'unauthorized' | 'forbidden' | 'notFound';
  const ownResponse: Omit<KoaResponse, StrapiHelperName> = {
    get status() {
      return answer.explicitStatus ? res.statusCode : 404;
    },
    set status(code) {
      setStatus(code);
    },
    get message() {
      return res.statusMessage || STATUS_CODES[response.status] || '';
    },
    get body() {
      return answer.body;
    },
    set body(value) {
      setBody(value);
    },
    get type() {
      const value = res.getHeader('Content-Type');
      return typeof value === 'string' ? (value.split(';')[0] ?? '') : '';
    },
    set type(value) {
      setType(value);
    },
    get header() {
      return res.getHeaders();
    },
    get headers() {
      return res.getHeaders();
    },
    get headerSent() {
      return res.headersSent;
    },
    get etag() {
      const value = res.getHeader('ETag');
      return typeof value === 'string' ? value : '';
    },
    set etag(value) {
      setHeader('ETag', /^(W\/)?"/.test(value) ? value : `"${value}"`);
    },
    get lastModified() {
      const value = res.getHeader('Last-Modified');
      return typeof value === 'string' ? new Date(value) : undefined;
    },
    set lastModified(value) {
      if (value !== undefined) setHeader('Last-Modified', new Date(value).toUTCString());
    },
    get length() {
      const header = res.getHeader('Content-Length');
      if (header !== undefined) return Number(header);
      const body = answer.body;
      if (body === null || body === undefined || isStream(body)) return undefined;
      if (typeof body === 'string') return Buffer.byteLength(body);
      return Buffer.isBuffer(body) ? body.length : Buffer.byteLength(JSON.stringify(body));
    },
    set length(value) {
      if (value !== undefined) setHeader('Content-Length', value);
    },
    get writable() {
      return !res.writableEnded && (res.socket?.writable ?? true);
    },
    get socket() {
      return res.socket;
    },
    vary(field) {
      if (!res.headersSent) res.vary(field);
    },
    has: (name) => res.hasHeader(name),
    attachment(filename) {
      if (res.headersSent) return;
      if (filename === undefined) res.attachment();
      else res.attachment(filename);
    },
    flushHeaders() {
      res.flushHeaders();
    },
    get: getHeader,
    set(name, value) {
      if (typeof name === 'string') {
        if (value !== undefined) setHeader(name, value);
        return;
      }
      for (const [key, each] of Object.entries(name)) setHeader(key, each);
    },
    append(name, value) {
      if (!res.headersSent) res.appendHeader(name, Array.isArray(value) ? value.map(String) : String(value));
    },
    remove(name) {
      if (!res.headersSent) res.removeHeader(name);
    },
    redirect,
  };

  const answerWith = (status: number, body: unknown) => {
    setStatus(status);
    setBody(body);
  };
  // Strapi adds them to Koa's response and delegates the context's to them (a policy may call
  // `policyContext.response.forbidden(...)`); Koa's own methods are not enumerated
  const strapiHelpers = {
    send(data: unknown, status = 200) {
      answerWith(status, data);
    },
    created(data: unknown) {
      answerWith(201, data);
    },
    deleted(data?: unknown) {
      if (data === undefined || data === null) setStatus(204);
      else answerWith(200, data);
    },
    ...errorHelpers(answerWith),
  };
  for (const [name, helper] of Object.entries(strapiHelpers))
    Object.defineProperty(ownResponse, name, { value: helper, enumerable: false, configurable: true, writable: true });
  // Koa's own flag, which copies of Strapi's errors middleware read after `await next()` (unset: a 404)
  Object.defineProperty(ownResponse, '_explicitStatus', {
    get: () => answer.explicitStatus,
    set: (value: unknown) => {
      answer.explicitStatus = Boolean(value);
    },
    enumerable: false,
    configurable: true,
  });
  // the helpers were defined just above, which the literal's type cannot say
  const response = ownResponse as KoaResponse;
  const ctx = {
    req,
    res,
    get app() {
      return koaApps.get(req.app) ?? defaultKoaApp();
    },
    request,
    response,
    state: requestState(req),
    params: {},
    cookies: koaCookies(req, res, () => (koaApps.get(req.app) ?? defaultKoaApp()).keys),
    get session() {
      return sessionOf(req);
    },
    set session(value: unknown) {
      replaceSession(req, value);
    },
    throw(first?: number | ThrowArgument, ...rest: ThrowArgument[]): never {
      if (first === undefined) throw createError(...rest);
      // one call per overload of http-errors (a status first, or not)
      throw typeof first === 'number' ? createError(first, ...rest) : createError(first, ...rest);
    },
    assert(value: unknown, status = 500, message?: string) {
      if (!value) throw createError(status, message ?? STATUS_CODES[status] ?? '');
    },
    ...strapiHelpers,
  };
  // what JSON.stringify writes of them, as Koa's toJSON (never the sockets; the app's keys stay out):
  // a controller answering `transformResponse(entry, ctx)` sends `meta` as this
  const requestJson = () => ({ method: request.method, url: request.url, header: request.header });
  const responseJson = () => ({ status: response.status, message: response.message, header: response.header });
  hiddenMethod(ctx, 'toJSON', () => {
    const { subdomainOffset, proxy, env } = ctx.app;
    return {
      request: requestJson(),
      response: responseJson(),
      app: { subdomainOffset, proxy, env },
      originalUrl: req.originalUrl,
      req: '<original node req>',
      res: '<original node res>',
      socket: '<original node socket>',
    };
  });
  // the shortcuts (`ctx.status`, `ctx.body`, `ctx.query`…) are the request's and the response's own
  // accessors, as Koa delegates them: `body` is the response's, `get` and the headers the request's
  const shortcuts = [
    ...Object.entries(Object.getOwnPropertyDescriptors(request)).filter(([key]) => !REQUEST_ONLY.has(key)),
    ...Object.entries(Object.getOwnPropertyDescriptors(response)),
  ];
  for (const [key, descriptor] of shortcuts) if (!(key in ctx)) Object.defineProperty(ctx, key, descriptor);
  hiddenMethod(request, 'toJSON', requestJson);
  hiddenMethod(response, 'toJSON', responseJson);
  // the accessors above are defined at run time, which the object literal's type cannot say
  return ctx as unknown as KoaContext;
}
