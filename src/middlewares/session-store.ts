/**
 * The session of a request, as `strapi::session` (koa-session with its cookie store) gives Koa's
 * `ctx.session`. The middleware only offers it: the cookie is read, and the write-back armed, the
 * first time the app touches `ctx.session`, so requests that never do pay nothing for it. A
 * request without the middleware has none (`ctx.session` undefined, as in Koa).
 */
import type { Request, Response } from 'express';

export type SessionData = Record<string, unknown>;

export interface SessionHandle {
  /** null once the app set `ctx.session = null` */
  data: SessionData | null;
}

/** Opens a request's session: reads it and arranges for it to be written back. */
export type SessionOpener = (req: Request, res: Response) => SessionHandle;

const offered = new WeakMap<Request, SessionOpener>();
const opened = new WeakMap<Request, SessionHandle>();

export function offerSession(req: Request, open: SessionOpener): void {
  offered.set(req, open);
}

function handleOf(req: Request): SessionHandle | undefined {
  const existing = opened.get(req);
  if (existing) return existing;
  const open = offered.get(req);
  if (!open || !req.res) return undefined;
  const handle = open(req, req.res);
  opened.set(req, handle);
  return handle;
}

/** The request's session, or undefined without `strapi::session`; one set to null starts again empty, as koa-session's. */
export function sessionOf(req: Request): SessionData | undefined {
  const handle = handleOf(req);
  if (!handle) return undefined;
  handle.data ??= {};
  return handle.data;
}

/** `ctx.session = value`: null ends the session; an object replaces it. */
export function replaceSession(req: Request, value: unknown): void {
  const handle = handleOf(req);
  if (!handle) return;
  if (value === null || value === undefined) handle.data = null;
  else if (typeof value === 'object' && !Array.isArray(value)) handle.data = { ...(value as SessionData) };
  else throw new TypeError('this.session can only be set as null or an object.');
}
