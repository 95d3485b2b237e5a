/**
 * Strapi v4's `factories` (`createCoreRouter`, `createCoreController`, `createCoreService`), as
 * `require('@strapi/strapi')` answers them while the app's api code loads. Each one records what
 * it was given (Strapi's own keep it in a closure): the route reader (route-files.ts) and the
 * controller and service registry (app-controllers.ts) build from the records once the service runs.
 */
import Module from 'node:module';
import type { AppRoute } from './route-endpoint.js';

const CORE_ROUTER = Symbol('createCoreRouter');
const CORE_FACTORY = Symbol('createCoreController / createCoreService');

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
    return { [CORE_ROUTER]: { uid, options }, type: 'content-api', prefix: options.prefix };
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

/** Runs `load` with `require('@strapi/strapi')` answered by the factories above. */
export async function withStrapiFactories<T>(load: () => Promise<T>): Promise<T> {
  const original = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === '@strapi/strapi') return { factories, default: { factories } };
    return original.call(this, request, parent, isMain);
  };
  try {
    return await load();
  } finally {
    Module._load = original;
  }
}
