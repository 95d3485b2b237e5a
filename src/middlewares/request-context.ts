/**
 * `strapi.requestContext`: the Koa context of the request being served, wherever the code runs
 * (a service, a lifecycle hook), as Strapi keeps it in an AsyncLocalStorage around each request.
 * The request is entered again after the body parsers (their callbacks run outside the request's
 * async context) and around each Koa middleware.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, RequestHandler, Response } from 'express';
import { createKoaContext, type KoaContext } from './koa-context.js';

/** the request being served, or what `strapi.requestContext.run(store, cb)` was given */
type Store = { req: Request } | { given: unknown };

const storage = new AsyncLocalStorage<Store>();
const contexts = new WeakMap<Request, KoaContext>();

/** Runs the rest of the chain inside the request's context. */
export const enterRequestContext: RequestHandler = (req, _res, next) => {
  storage.run({ req }, next);
};

/** Runs `work` inside the request's context (a Koa middleware, which the bridge calls from outside it). */
export function inRequestContext<T>(req: Request, work: () => T): T {
  return storage.run({ req }, work);
}

/** The Koa context the request's code is given: `strapi.requestContext.get()` answers the same one. */
export function noteKoaContext(req: Request, ctx: KoaContext): void {
  if (!contexts.has(req)) contexts.set(req, ctx);
}

/** A Koa context beside an answer written by other code (a GraphQL result): its body goes nowhere. */
export function detachedKoaContext(req: Request, state: object): KoaContext {
  const ctx = createKoaContext(req, req.res as Response, { body: undefined, explicitStatus: false });
  ctx.state = state as Record<string, unknown>;
  noteKoaContext(req, ctx);
  return ctx;
}

export interface StrapiRequestContext {
  get(): unknown;
  run<T>(store: unknown, cb: () => T): Promise<T>;
}

export const strapiRequestContext: StrapiRequestContext = {
  get() {
    const store = storage.getStore();
    if (store === undefined) return undefined;
    if ('given' in store) return store.given;
    const { req } = store;
    let ctx = contexts.get(req);
    if (!ctx) {
      // a core route no Koa middleware wraps: a context of its own, whose body goes nowhere
      ctx = createKoaContext(req, req.res as Response, { body: undefined, explicitStatus: false });
      contexts.set(req, ctx);
    }
    return ctx;
  },
  run(store, cb) {
    return Promise.resolve(storage.run({ given: store }, cb));
  },
};
