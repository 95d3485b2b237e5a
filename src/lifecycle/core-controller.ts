/**
 * The core controller of a content-type, as Strapi v4's `createCoreController` makes it (the
 * prototype of an app's controller, so `super.find(ctx)` works): find/findOne/create/update/delete
 * (find/update/delete for a single type) over a Koa-like `ctx`, and the helpers they call
 * (`validateQuery`, `sanitizeQuery`, `sanitizeInput`, `sanitizeOutput`, `transformResponse`,
 * `validateInput`), with the permissions of the request behind `ctx`, then what the app
 * registered in `strapi.sanitizers` / `strapi.validators` for their path.
 *
 * An action runs as Strapi's does (validate, sanitize, `strapi.service(uid).<method>`, sanitize
 * the output, transform) when the app's code takes part in it: a helper the controller overrides
 * or the service method the action calls, or a sanitizer it registered that the action runs.
 * Otherwise it runs the REST operation directly, which answers the same envelope (the same reads,
 * permissions and errors) without the round trip through flat entries.
 */
import cloneDeep from 'lodash/cloneDeep.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import * as operations from '../operations/index.js';
import { withWriteBody, type WriteTarget } from '../plugins/upload/multipart-entry.js';
import { validateReadQuery } from '../query/index.js';
import type { ServiceContext } from '../service-context.js';
import { callerAccess, requestOf, withAccess } from './caller-access.js';
import type { CoreService } from './core-service.js';
import { sanitizeInput, sanitizeOutput, transformResponse, validateInput } from './entry-shapes.js';
import {
  CONTENT_API_INPUT,
  CONTENT_API_OUTPUT,
  extendsCoreAction,
  runRegistered,
  type AppRegistries,
} from './sanitizer-registries.js';
import { describeSchema } from './strapi-schema.js';
import { UnsupportedStrapiApi } from './unsupported.js';

/** A controller or service object: its methods by name. */
export type MethodBag = Record<string, unknown>;
type Context = Partial<KoaContext>;

export interface CoreControllerHost {
  service: ServiceContext;
  /** `strapi.service(uid)`: the app's service of the content-type, or its core service */
  appService(uid: string): unknown;
  /** the core service the app's own is built on, to tell which methods the app overrides */
  coreService(uid: string): CoreService;
  /** `strapi.sanitizers` and `strapi.validators` (absent: an app with no code, which registers none) */
  registries?: AppRegistries;
}

export const CONTROLLER_HELPERS = [
  'transformResponse',
  'sanitizeOutput',
  'sanitizeInput',
  'sanitizeQuery',
  'validateQuery',
  'validateInput',
] as const;

/** The service method each core action calls. */
const SERVICE_METHODS: Record<'collectionType' | 'singleType', Record<string, string>> = {
  collectionType: { find: 'find', findOne: 'findOne', create: 'create', update: 'update', delete: 'delete' },
  singleType: { find: 'find', update: 'createOrUpdate', delete: 'delete' },
};

export function coreActionNames(kind: 'collectionType' | 'singleType'): string[] {
  return Object.keys(SERVICE_METHODS[kind]);
}

/** Calls `target[name](...args)` as a method; a missing one throws as calling undefined would. */
export function callMethod(target: unknown, name: string, ...args: unknown[]): Promise<unknown> {
  const method = (target as MethodBag | null | undefined)?.[name];
  if (typeof method !== 'function') throw new TypeError(`${name} is not a function`);
  return Promise.resolve(Reflect.apply(method, target, args) as unknown);
}

function queryOf(ctx: Context): Record<string, unknown> {
  return (ctx.query ?? {}) as Record<string, unknown>;
}

function idOf(ctx: Context): string {
  return String(ctx.params?.id);
}

function bodyOf(ctx: Context): unknown {
  return ctx.request?.body;
}

function dataOf(ctx: Context): unknown {
  return (bodyOf(ctx) as { data?: unknown } | null | undefined)?.data;
}

function payload(ctx: Context): Record<string, unknown> {
  const data = dataOf(ctx);
  if (typeof data !== 'object' || data === null)
    throw new ValidationError('Missing "data" payload in the request body');
  return data as Record<string, unknown>;
}

function asRecord(value: unknown): MethodBag {
  return typeof value === 'object' && value !== null ? (value as MethodBag) : {};
}

/** A read that found nothing is `null`, as Strapi's core actions answer it (the route then says 404). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

export interface CoreController {
  controller: MethodBag;
  /** whether `action` of `self` (the core controller or the app's over it) runs the REST operation directly */
  direct(self: MethodBag, action: string): boolean;
}

export function createCoreController(host: CoreControllerHost, uid: string): CoreController {
  const { service } = host;
  const { registry } = service;
  const made = registry.contentType(uid);
  if (!made) throw new UnsupportedStrapiApi(`the core controller of "${uid}"`, 'it is not a content-type of this app');
  const methods = SERVICE_METHODS[made.kind];
  // the registry's schema when used: one made in register outlives the attributes the app changes there
  const current = () => registry.contentType(uid) ?? made;

  const { registries } = host;
  // what the app registered runs after the built-in steps, given the schema as Strapi describes it
  const registered = (kind: keyof AppRegistries, path: string, data: unknown) =>
    registries ? runRegistered(registries[kind], path, describeSchema(current()), data) : data;
  const helpers: MethodBag = {
    transformResponse: (data: unknown, meta?: Record<string, unknown>) =>
      transformResponse(registry, current(), data, meta),
    sanitizeOutput: async (data: unknown, ctx: Context) =>
      registered('sanitizers', CONTENT_API_OUTPUT, sanitizeOutput(registry, current(), data, callerAccess(ctx))),
    sanitizeInput: async (data: unknown, ctx: Context) =>
      registered('sanitizers', CONTENT_API_INPUT, sanitizeInput(current(), data, callerAccess(ctx))),
    // a copy all the way down: an app editing what it gets never changes ctx.query
    sanitizeQuery: async (ctx: Context) => withAccess(cloneDeep(queryOf(ctx)), callerAccess(ctx)),
    validateQuery: async (ctx: Context) => {
      validateReadQuery({ registry, config: host.service.config, access: callerAccess(ctx) }, uid, queryOf(ctx));
    },
    validateInput: async (data: unknown, ctx: Context) => {
      validateInput(current(), data, callerAccess(ctx));
      // awaited, so that a validator's refusal refuses the request (Strapi 4.26 starts them without waiting)
      await registered('validators', CONTENT_API_INPUT, data);
    },
  };

  /** a write's body: the request's JSON, or its multipart/form-data (`data` + `files.<path>`, stored first) */
  const written = <T>(ctx: Context, target: WriteTarget, write: (body: unknown) => Promise<T>): Promise<T> =>
    withWriteBody(service, requestOf(ctx), current(), target, bodyOf(ctx), write, () => dataOf(ctx));

  // no helper, service method or registered sanitizer of the app's takes part
  const direct = (self: MethodBag, action: string): boolean => {
    if (!CONTROLLER_HELPERS.every((name) => self[name] === helpers[name])) return false;
    if (registries && extendsCoreAction(registries, action)) return false;
    const method = methods[action] ?? action;
    const own = asRecord(host.appService(uid))[method];
    return typeof own !== 'function' || own === (host.coreService(uid) as unknown as MethodBag)[method];
  };
  const operationCtx = (ctx: Context) => ({ ...service, access: callerAccess(ctx) });
  const appService = () => host.appService(uid);

  /** validate and sanitize the query, run `read` with it, sanitize and transform its entries */
  async function strapiRead(self: MethodBag, ctx: Context, read: (query: unknown) => Promise<unknown>) {
    await callMethod(self, 'validateQuery', ctx);
    const query = await callMethod(self, 'sanitizeQuery', ctx);
    return callMethod(self, 'transformResponse', await callMethod(self, 'sanitizeOutput', await read(query), ctx));
  }
  async function strapiWrite(
    self: MethodBag,
    ctx: Context,
    write: (data: unknown, query: MethodBag) => Promise<unknown>,
  ) {
    await callMethod(self, 'validateQuery', ctx);
    const query = asRecord(await callMethod(self, 'sanitizeQuery', ctx));
    const data = await callMethod(self, 'sanitizeInput', payload(ctx), ctx);
    const entry = await write(data, query);
    return callMethod(self, 'transformResponse', await callMethod(self, 'sanitizeOutput', entry, ctx));
  }

  const collectionActions: MethodBag = {
    async find(this: MethodBag, ctx: Context) {
      if (direct(this, 'find')) return operations.find(operationCtx(ctx), uid, queryOf(ctx));
      await callMethod(this, 'validateQuery', ctx);
      const query = await callMethod(this, 'sanitizeQuery', ctx);
      const { results, pagination } = asRecord(await callMethod(appService(), 'find', query));
      const sanitized = await callMethod(this, 'sanitizeOutput', results, ctx);
      return callMethod(this, 'transformResponse', sanitized, { pagination });
    },
    async findOne(this: MethodBag, ctx: Context) {
      if (direct(this, 'findOne')) return orNull(operations.findOne(operationCtx(ctx), uid, idOf(ctx), queryOf(ctx)));
      return strapiRead(this, ctx, (query) => callMethod(appService(), 'findOne', idOf(ctx), query));
    },
    async create(this: MethodBag, ctx: Context) {
      if (direct(this, 'create'))
        return written(ctx, { kind: 'create' }, (body) =>
          operations.create(operationCtx(ctx), uid, body, queryOf(ctx)),
        );
      return strapiWrite(this, ctx, (data, query) => callMethod(appService(), 'create', { ...query, data }));
    },
    async update(this: MethodBag, ctx: Context) {
      if (direct(this, 'update'))
        return written(ctx, { kind: 'update', id: idOf(ctx) }, (body) =>
          operations.update(operationCtx(ctx), uid, idOf(ctx), body, queryOf(ctx)),
        );
      return strapiWrite(this, ctx, (data, query) => callMethod(appService(), 'update', idOf(ctx), { ...query, data }));
    },
    async delete(this: MethodBag, ctx: Context) {
      if (direct(this, 'delete')) return operations.remove(operationCtx(ctx), uid, idOf(ctx), queryOf(ctx));
      return strapiRead(this, ctx, (query) => callMethod(appService(), 'delete', idOf(ctx), query));
    },
  };
  const singleActions: MethodBag = {
    async find(this: MethodBag, ctx: Context) {
      if (direct(this, 'find')) return orNull(operations.findSingle(operationCtx(ctx), uid, queryOf(ctx)));
      return strapiRead(this, ctx, (query) => callMethod(appService(), 'find', query));
    },
    async update(this: MethodBag, ctx: Context) {
      if (direct(this, 'update'))
        return written(ctx, { kind: 'single', locale: queryOf(ctx).locale }, (body) =>
          operations.upsertSingle(operationCtx(ctx), uid, body, queryOf(ctx)),
        );
      return strapiWrite(this, ctx, (data, query) => callMethod(appService(), 'createOrUpdate', { ...query, data }));
    },
    async delete(this: MethodBag, ctx: Context) {
      if (direct(this, 'delete')) return operations.deleteSingle(operationCtx(ctx), uid, queryOf(ctx));
      return strapiRead(this, ctx, (query) => callMethod(appService(), 'delete', query));
    },
  };
  // the actions are the controller's own, the helpers its prototype's, as in Strapi
  const controller = Object.assign(
    Object.create(helpers) as MethodBag,
    made.kind === 'singleType' ? singleActions : collectionActions,
  );
  return { controller, direct };
}
