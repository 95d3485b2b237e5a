import type { RequestHandler } from 'express';

/**
 * The request handlers every request passes through, as one Express layer: each Express layer
 * costs the router a match, a prefix trim and the trip through its `next` (the routers were a
 * tenth of the HTTP thread's time on a one-entry GET, with ten global layers). Runs them as
 * consecutive `app.use(handler)` layers would: a thrown error or a rejected promise goes to
 * `next(error)`, the handlers left are skipped on an error, `next('route')` goes on,
 * `next('router')` leaves. An error handler (four parameters) keeps a layer of its own.
 */
export function asOneLayer(handlers: readonly RequestHandler[]): RequestHandler[] {
  if (handlers.length < 2 || handlers.some((handler) => handler.length > 3)) return [...handlers];
  const layer: RequestHandler = (req, res, done) => {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err === 'router' || (err && err !== 'route')) {
        done(err);
        return;
      }
      const handler = handlers[index++];
      if (!handler) {
        done();
        return;
      }
      try {
        const returned = handler(req, res, next) as unknown;
        if (returned instanceof Promise)
          returned.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
      } catch (error) {
        next(error);
      }
    };
    next();
  };
  return [layer];
}
