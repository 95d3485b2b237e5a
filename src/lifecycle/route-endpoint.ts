/**
 * One route the app added through `strapi.server`, made into a Koa middleware as Strapi v4 composes
 * an endpoint: the route info in `ctx.state.route`, authentication and authorization (`route-auth.ts`),
 * the route's policies, its middlewares, then its handler(s), whose returned value becomes the body
 * when they set none. Named policies and middlewares are the app's files, loaded here.
 */
import { join, relative } from 'node:path';
import type { Request } from 'express';
import compose from 'koa-compose';
import type { RequestAuth } from '../access/ability.js';
import { ConfigError, importAppModule, namedModuleFile, type MiddlewareEntry } from '../config/index.js';
import { AppError, fromStrapiUtilsError, PolicyError } from '../errors/index.js';
import { loadMiddlewareFactory, startMiddleware } from '../middlewares/custom.js';
import type { KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import { setRequestAuth } from '../operations/request-context.js';
import { verifyRouteAuth, type RouteApi, type RouteAuthConfig } from '../access/route-auth.js';
import { authState } from '../access/auth-state.js';
import type { StrapiApp } from './strapi-app.js';
import { withStrapiFactories } from './strapi-factories.js';

/** A policy as a route names it: a function, `'global::name'`, `'api::api.name'`, or `{ name, config }`. */
export type PolicyEntry = string | PolicyFunction | { name: string; config?: Record<string, unknown> };
/** A route middleware: a Koa middleware, a name as in `config/middlewares`, or `{ name | resolve, config }`. */
export type RouteMiddlewareEntry =
  string | KoaMiddleware | { name?: string; resolve?: string; config?: Record<string, unknown> };

type PolicyFunction = (
  context: PolicyContext,
  config: Record<string, unknown>,
  extra: { strapi: StrapiApp },
) => unknown;
/** What a policy is given: the request's context, plus `type` ('koa') and `is(type)`. */
type PolicyContext = KoaContext & { readonly type: 'koa'; is(type: string): boolean };

export interface AppRoute {
  method: string;
  path: string;
  handler: unknown;
  config?: { auth?: RouteAuthConfig; policies?: PolicyEntry[]; middlewares?: RouteMiddlewareEntry[]; prefix?: string };
  info?: Record<string, unknown>;
}

export type RouterMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all';
/** The methods a Strapi route may name, and the router's method for each. */
const METHODS: Readonly<Record<string, RouterMethod>> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
  ALL: 'all',
};

/** The router method of a route's `method` (any case); undefined when Strapi accepts no such method. */
export function routerMethod(method: unknown): RouterMethod | undefined {
  const key = String(method).trim().toUpperCase();
  return Object.hasOwn(METHODS, key) ? METHODS[key] : undefined;
}

export const ROUTE_METHODS = Object.keys(METHODS);

/** What composing an endpoint needs from the running service. */
export interface EndpointHost {
  appDir: string;
  authenticate(req: Request): Promise<RequestAuth>;
  /** the caller as the strategies a route's `config.auth.strategies` lists decide, in their order (else `authenticate`) */
  authenticateWith?(req: Request, strategies: readonly unknown[]): Promise<RequestAuth>;
  strapi(): StrapiApp;
  /** a string handler (`'article.find'`, `'api::article.article.find'`) of a route of `api`; undefined: unknown */
  controllerHandler?(name: string, api: string | undefined): KoaMiddleware | undefined;
  /** a plugin's middleware by its name (`plugin::users-permissions.rateLimit`) with its config; undefined: none such */
  pluginMiddleware?(name: string, config: Record<string, unknown>): KoaMiddleware | undefined;
  /** a plugin's policy by its name (`plugin::<plugin>.<name>`): a function or `{ handler }`; undefined: none such */
  pluginPolicy?(name: string): unknown;
}

const PLUGIN_NAME = /^plugin::[\w-]+\.[\w-]+$/;

const POLICY_NAME = /^(global|api)::(.+)$/;
const REFUSALS = new Set(['ForbiddenError', 'PolicyError']);

/**
 * The file of a named policy: `global::name` in src/policies, `api::api.name` in that api's
 * policies; a bare `name` is the route's api's own policy (as Strapi looks it up), else a global one.
 */
function policyFile(
  appDir: string,
  name: string,
  routeApi: string | undefined,
): { file: string | undefined; looked: string } {
  if (!name.includes('::')) {
    const local = routeApi === undefined ? undefined : policyFile(appDir, `api::${routeApi}.${name}`, routeApi);
    const global = policyFile(appDir, `global::${name}`, routeApi);
    return local?.file
      ? local
      : { file: global.file, looked: [local?.looked, global.looked].filter(Boolean).join(' or ') };
  }
  const [, kind, rest = ''] = POLICY_NAME.exec(name) ?? [];
  if (kind === 'global') {
    return { file: namedModuleFile(join(appDir, 'src', 'policies'), rest), looked: `src/policies/${rest}.{ts,js}` };
  }
  const [api, policy] = rest.split('.');
  if (kind === 'api' && api && policy) {
    return {
      file: namedModuleFile(join(appDir, 'src', 'api', api, 'policies'), policy),
      looked: `src/api/${api}/policies/${policy}.{ts,js}`,
    };
  }
  return { file: undefined, looked: '' };
}

/** A policy module's function: the function itself, or Strapi's `createPolicy({ handler })`. */
function policyHandler(exported: unknown): PolicyFunction | undefined {
  const handler =
    typeof exported === 'function' ? exported : (exported as { handler?: unknown } | null | undefined)?.handler;
  return typeof handler === 'function' ? (handler as PolicyFunction) : undefined;
}

/** `plugin::<plugin>.<name>`, or a bare name on a plugin's route (the plugin's own policy first, as Strapi looks it up). */
function pluginPolicy(host: EndpointHost, name: string, plugin: string | undefined): PolicyFunction | undefined {
  const full = PLUGIN_NAME.test(name) ? name : plugin && !name.includes('::') ? `plugin::${plugin}.${name}` : undefined;
  if (!full) return undefined;
  const found = policyHandler(host.pluginPolicy?.(full));
  if (!found && full === name) throw new Error(`policy "${name}" is not found: no such plugin policy`);
  return found;
}

async function resolvePolicy(
  host: EndpointHost,
  entry: PolicyEntry,
  owner: { api: string | undefined; plugin: string | undefined },
): Promise<{ handler: PolicyFunction; config: Record<string, unknown> }> {
  if (typeof entry === 'function') return { handler: entry, config: {} };
  const name = typeof entry === 'string' ? entry : entry.name;
  const config = typeof entry === 'object' ? (entry.config ?? {}) : {};
  const ofPlugin = pluginPolicy(host, name, owner.plugin);
  if (ofPlugin) return { handler: ofPlugin, config };
  const { file, looked } = policyFile(host.appDir, name, owner.api);
  if (!looked)
    throw new Error(
      `policy "${name}" cannot be run here: name one of the app's policies (global::<name> or api::<api>.<name>) or give a function`,
    );
  if (!file) throw new Error(`policy "${name}" is not found: no file ${looked}`);
  const handler = policyHandler(await withStrapiFactories(() => importAppModule(file, looked)));
  if (!handler)
    throw new Error(`policy "${name}" (${looked}) must export a function (policyContext, config, { strapi })`);
  return { handler, config };
}

/** A policy a GraphQL resolversConfig names: the app's (`global::`, `api::`) or a plugin's (`plugin::`). */
export function resolveNamedPolicy(
  host: EndpointHost,
  entry: Exclude<PolicyEntry, PolicyFunction>,
): Promise<{ handler: PolicyFunction; config: Record<string, unknown> }> {
  return resolvePolicy(host, entry, { api: undefined, plugin: undefined });
}

function middlewareEntry(entry: Exclude<RouteMiddlewareEntry, KoaMiddleware>): MiddlewareEntry {
  if (typeof entry === 'string') return { name: entry, resolved: false, config: {} };
  if (entry.name) return { name: entry.name, resolved: false, config: entry.config ?? {} };
  if (entry.resolve) return { name: entry.resolve, resolved: true, config: entry.config ?? {} };
  throw new Error('a route middleware must be a function, a name, or { name | resolve, config }');
}

async function resolveMiddleware(
  host: EndpointHost,
  entry: RouteMiddlewareEntry,
  where: string,
): Promise<KoaMiddleware> {
  if (typeof entry === 'function') return entry;
  const named = middlewareEntry(entry);
  if (!named.resolved && PLUGIN_NAME.test(named.name)) {
    const middleware = host.pluginMiddleware?.(named.name, named.config);
    if (!middleware) throw new Error(`middleware "${named.name}" is not found: no such plugin middleware`);
    return middleware;
  }
  const loaded = await loadMiddlewareFactory(where, named, host.appDir);
  return (await startMiddleware(loaded, named.name, named.config, host.strapi())) ?? ((_ctx, next) => next());
}

function policyContext(ctx: KoaContext): PolicyContext {
  // the request's own context underneath, so what a policy reads is live (Strapi copies it)
  return Object.assign(Object.create(ctx) as KoaContext, {
    type: 'koa' as const,
    is: (type: string) => type === 'koa',
  });
}

/** `config.auth.strategies`, checked as Strapi's auth service asserts them: names, or objects with an `authenticate` function. */
function routeStrategies(config: RouteAuthConfig): readonly unknown[] | undefined {
  const strategies = config === false ? undefined : config?.strategies;
  if (strategies === undefined) return undefined;
  const valid = (entry: unknown) =>
    typeof entry === 'string' ||
    (typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as { authenticate?: unknown }).authenticate === 'function');
  if (!Array.isArray(strategies) || !strategies.every(valid))
    throw new Error(
      'config.auth.strategies must be a list of strategy names or objects { name, authenticate(ctx), verify(auth, config) }',
    );
  return strategies;
}

function authentication(host: EndpointHost, route: AppRoute, api: RouteApi): KoaMiddleware {
  const config = route.config?.auth;
  const strategies = routeStrategies(config);
  return async (ctx, next) => {
    if (config === false) return next();
    if (api !== 'content-api') return ctx.unauthorized('Missing or invalid credentials');
    // a bad or expired credential throws the 401 every content-API route answers
    const auth =
      strategies && host.authenticateWith
        ? await host.authenticateWith(ctx.req, strategies)
        : await host.authenticate(ctx.req);
    setRequestAuth(ctx.req, auth);
    ctx.state.isAuthenticated = true;
    ctx.state.auth = authState(auth);
    const verdict = verifyRouteAuth(auth, config);
    if (verdict === 'unauthorized') return ctx.unauthorized();
    if (verdict === 'forbidden') return ctx.forbidden();
    return next();
  };
}

/**
 * A route's handler(s) as Koa middlewares: functions, or a controller action named by a string
 * (`'<controller>.<action>'`, `'api::<api>.<controller>.<action>'`) that `controllerHandler` knows.
 */
export function routeHandlers(
  route: AppRoute,
  host?: Pick<EndpointHost, 'appDir' | 'controllerHandler'>,
): KoaMiddleware[] {
  if (typeof route.handler === 'string') {
    const name = route.handler.trim();
    const api = typeof route.info?.apiName === 'string' ? route.info.apiName : undefined;
    const handler = host?.controllerHandler?.(name, api);
    if (handler) return [handler];
    if (!host?.controllerHandler)
      throw new Error(`its handler "${name}" names a controller action: give the route a function (ctx) => { … }`);
    throw new Error(`handler not found "${name}": ${missingActionReason(host.appDir, name, api)}`);
  }
  const list = Array.isArray(route.handler) ? route.handler : [route.handler];
  return list.map((handler) => {
    if (typeof handler === 'function') return handler as KoaMiddleware;
    throw new Error('its handler must be a function (ctx) => { … }, an array of them, or a controller action name');
  });
}

/** Why a string handler names nothing: no such controller, or a controller file that did not load. */
function missingActionReason(appDir: string, name: string, api: string | undefined): string {
  const controllerName = name.slice(0, name.lastIndexOf('.'));
  const [, ownApi, ownController] = /^api::([^.]+)\.(.+)$/.exec(controllerName) ?? [undefined, api, controllerName];
  const file =
    ownApi && ownController && namedModuleFile(join(appDir, 'src', 'api', ownApi, 'controllers'), ownController);
  return file
    ? `its controller ${relative(appDir, file)} did not load (see the warning naming it)`
    : `no such controller action${ownApi ? ` in api ${ownApi}` : ''}`;
}

/**
 * Strapi's authorization step runs the rest of the endpoint inside it: an Unauthorized or
 * Forbidden error from a policy (a refusal is a PolicyError), a middleware or the handler is
 * answered as its own refusal, a bare 401 or 403 (`Unauthorized`, `Forbidden`).
 */
async function refusalsAnswered(ctx: KoaContext, next: () => Promise<unknown>): Promise<unknown> {
  try {
    return await next();
  } catch (err) {
    const error = fromStrapiUtilsError(err);
    if (!(error instanceof AppError)) throw err;
    if (error.status === 401 && error.name === 'UnauthorizedError') return ctx.unauthorized();
    if (error.status === 403 && REFUSALS.has(error.name)) return ctx.forbidden();
    throw err;
  }
}

/** The whole endpoint of a route; a policy or middleware that cannot be found stops start-up. */
export async function composeEndpoint(
  host: EndpointHost,
  route: AppRoute,
  api: RouteApi,
  where: string,
): Promise<KoaMiddleware> {
  const label = `route ${route.method} ${route.path}`;
  try {
    const action = routeHandlers(route, host);
    const owner = {
      api: typeof route.info?.apiName === 'string' ? route.info.apiName : undefined,
      plugin: typeof route.info?.pluginName === 'string' ? route.info.pluginName : undefined,
    };
    const policies = await Promise.all(
      (route.config?.policies ?? []).map((entry) => resolvePolicy(host, entry, owner)),
    );
    const middlewares: KoaMiddleware[] = [];
    for (const entry of route.config?.middlewares ?? []) middlewares.push(await resolveMiddleware(host, entry, where));
    const info = { ...route, config: route.config ?? {}, info: { ...route.info, type: api } };
    return compose<KoaContext>([
      (ctx, next) => {
        ctx.state.route = info;
        return next();
      },
      authentication(host, route, api),
      refusalsAnswered,
      async (ctx, next) => {
        const context = policyContext(ctx);
        for (const { handler, config } of policies) {
          const result = await handler(context, config, { strapi: host.strapi() });
          if (result !== true && result !== undefined) throw new PolicyError();
        }
        return next();
      },
      ...middlewares,
      async (ctx, next) => {
        const value = await next();
        if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
      },
      ...action,
    ]);
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(where, undefined, `${label}: ${err.message}`);
    throw new ConfigError(where, undefined, `${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A route as `listRoutes()` gives it (the fields of Koa router's layers apps read). */
export interface ListedRoute {
  path: string;
  methods: string[];
}

/** A route's methods as a Koa router layer lists them (a GET route answers HEAD too). */
export function layerMethods(method: string): string[] {
  const upper = method.toUpperCase();
  return upper === 'GET' ? ['HEAD', 'GET'] : [upper];
}
