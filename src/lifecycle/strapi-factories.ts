/**
 * Strapi v4's `factories` (`createCoreRouter`, `createCoreController`, `createCoreService`), as
 * `require('@strapi/strapi')` answers them while the app's files load. Each one records what
 * it was given (Strapi's own keep it in a closure): the route reader (route-files.ts) and the
 * controller and service registry (app-controllers.ts) build from the records once the service runs.
 */
import Module from 'node:module';
import type { AppRoute } from './route-endpoint.js';

const CORE_ROUTER = Symbol('createCoreRouter');
const CORE_FACTORY = Symbol('createCoreController / createCoreService');
/** on each route of a core router's `routes` list: which content-type's action it is */
const CORE_ROUTE = Symbol('core route');

export interface CoreRouterOptions {
  prefix?: string;
  only?: string[];
  except?: string[];
  /** per action: the route config Strapi merges into that action's route */
  config?: Record<string, AppRoute['config']>;
}

export interface CoreRouterRecord {
  [CORE_ROUTER]: { uid: string; options: CoreRouterOptions };
  type: string;
  prefix: string | undefined;
  /** Strapi's list, as its router's getter makes it (apps wrap it: `innerRouter.routes.concat(extra)`) */
  readonly routes: AppRoute[];
}

/** What a core router's route list needs of its content-type (Strapi reads `strapi.contentType(uid)`). */
export interface CoreRouterTarget {
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
}

/** Finds a content-type's names while the app's files load; undefined for a uid it does not know. */
export type CoreRouterLookup = (uid: string) => CoreRouterTarget | undefined;

let lookup: CoreRouterLookup | undefined;

const COLLECTION_ROUTES: Array<[action: string, method: string, path: (t: CoreRouterTarget) => string]> = [
  ['find', 'GET', (t) => `/${t.pluralName}`],
  ['findOne', 'GET', (t) => `/${t.pluralName}/:id`],
  ['create', 'POST', (t) => `/${t.pluralName}`],
  ['update', 'PUT', (t) => `/${t.pluralName}/:id`],
  ['delete', 'DELETE', (t) => `/${t.pluralName}/:id`],
];
const SINGLE_ROUTES: typeof COLLECTION_ROUTES = [
  ['find', 'GET', (t) => `/${t.singularName}`],
  ['update', 'PUT', (t) => `/${t.singularName}`],
  ['delete', 'DELETE', (t) => `/${t.singularName}`],
];

/**
 * Strapi v4.26's `createCoreRouter(uid).routes`: the core actions' routes, `config.<action>`
 * assigned over each one's `{}`, then `except` and `only` applied.
 */
function coreRouteList(uid: string, options: CoreRouterOptions, find: CoreRouterLookup | undefined): AppRoute[] {
  const target = find?.(uid);
  if (!target)
    throw new Error(`createCoreRouter('${uid}').routes: no such content-type (its schema.json is not in src/api)`);
  const table = target.kind === 'singleType' ? SINGLE_ROUTES : COLLECTION_ROUTES;
  return table
    .filter(([action]) => !(options.except ?? []).includes(action))
    .filter(([action]) => options.only === undefined || options.only.includes(action))
    .map(([action, method, path]) => ({
      method,
      path: path(target),
      handler: `${uid}.${action}`,
      config: { ...(options.config?.[action] ?? {}) },
      // enumerable, so a copy the app makes (`{ ...route, config }`) keeps it
      [CORE_ROUTE]: { uid, action },
    }));
}

/** The content-type and action of a route a core router's `routes` listed (undefined for the app's own). */
export function coreRouteOf(route: unknown): { uid: string; action: string } | undefined {
  return typeof route === 'object' && route !== null && CORE_ROUTE in route
    ? (route as { [CORE_ROUTE]: { uid: string; action: string } })[CORE_ROUTE]
    : undefined;
}

/** What an app passes as `cfg`: the methods, or `({ strapi }) => methods`. */
export type CoreConfig = Record<string, unknown> | ((args: { strapi: unknown }) => Record<string, unknown>) | undefined;

export interface CoreFactoryRecord {
  kind: 'controller' | 'service';
  uid: string;
  cfg: CoreConfig;
}

/** The `({ strapi }) => instance` Strapi's createCoreController/Service return, with what built it. */
export type CoreFactory = ((args: { strapi: unknown }) => unknown) & { [CORE_FACTORY]: CoreFactoryRecord };

function coreFactory(kind: CoreFactoryRecord['kind'], uid: string, cfg: CoreConfig): CoreFactory {
  const factory = () => {
    throw new Error(
      `create-core-${kind}('${uid}') is instantiated by Content Service when the app's ${kind}s load; it cannot be called directly`,
    );
  };
  return Object.assign(factory, { [CORE_FACTORY]: { kind, uid, cfg } });
}

export const factories = {
  createCoreRouter(uid: string, options: CoreRouterOptions = {}): CoreRouterRecord {
    const find = lookup;
    let routes: AppRoute[] | undefined;
    return {
      [CORE_ROUTER]: { uid, options },
      type: 'content-api',
      prefix: options.prefix,
      get routes() {
        routes ??= coreRouteList(uid, options, find);
        return routes;
      },
    };
  },
  createCoreController: (uid: string, cfg?: CoreConfig): CoreFactory => coreFactory('controller', uid, cfg),
  createCoreService: (uid: string, cfg?: CoreConfig): CoreFactory => coreFactory('service', uid, cfg),
};

export function coreRouterRecord(value: unknown): CoreRouterRecord[typeof CORE_ROUTER] | undefined {
  return typeof value === 'object' && value !== null && CORE_ROUTER in value
    ? (value as CoreRouterRecord)[CORE_ROUTER]
    : undefined;
}

export function coreFactoryRecord(value: unknown): CoreFactoryRecord | undefined {
  return typeof value === 'function' && CORE_FACTORY in value ? (value as CoreFactory)[CORE_FACTORY] : undefined;
}

/** how many loads run with `require('@strapi/strapi')` answered (policies load side by side) */
let answering = 0;
let loadBeforeAnswering: typeof Module._load | undefined;

/** Answers `require('@strapi/strapi')` until as many `stopAnswering` calls: nested and parallel loads each take a turn. */
function startAnswering(): void {
  if (answering++ > 0) return;
  const original = Module._load;
  loadBeforeAnswering = original;
  Module._load = function (request, parent, isMain) {
    if (request === '@strapi/strapi') return { factories, default: { factories } };
    return original.call(this, request, parent, isMain);
  };
}

function stopAnswering(): void {
  if (--answering > 0 || loadBeforeAnswering === undefined) return;
  Module._load = loadBeforeAnswering;
  loadBeforeAnswering = undefined;
}

/**
 * Runs `load` with `require('@strapi/strapi')` answered by the factories above; `find` gives a core
 * router's `routes` the names of its content-type. Every app file loads so, not only the api code:
 * policies, middlewares and lifecycles require `@strapi/strapi` too (for its factories, or for a
 * type name their editor imported, which Strapi's module answers with undefined as here).
 */
export async function withStrapiFactories<T>(load: () => Promise<T>, find?: CoreRouterLookup): Promise<T> {
  const outer = lookup;
  if (find !== undefined) lookup = find;
  startAnswering();
  try {
    return await load();
  } finally {
    stopAnswering();
    lookup = outer;
  }
}
