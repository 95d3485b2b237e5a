/**
 * What the caller of a request may read, carried inside the params a controller's `sanitizeQuery`
 * gives the app's code. An enumerable symbol key survives the spreads app code makes
 * (`super.find({ ...params, populate })`), so a core service read with such params applies the
 * caller's permissions to whatever the app added; params built from scratch carry none (the
 * app's own, trusted read, as with the entity service).
 */
import type { Request } from 'express';
import { requestAuth } from '../operations/request-context.js';
import { UNRESTRICTED, type QueryAccess } from '../query/index.js';

const CALLER_ACCESS = Symbol('caller access');

type Params = Record<string, unknown>;

export function withAccess(params: Params, access: QueryAccess): Params {
  return { ...params, [CALLER_ACCESS]: access };
}

export function accessOf(params: Params | undefined): QueryAccess | undefined {
  const access = (params as Record<symbol, unknown> | undefined)?.[CALLER_ACCESS];
  return access ? (access as QueryAccess) : undefined;
}

/** The request a Koa-like context wraps, when it wraps one (app code may pass objects of its own). */
export function requestOf(ctx: unknown): Request | undefined {
  const req = (ctx as { req?: unknown } | null | undefined)?.req;
  return typeof req === 'object' && req !== null && 'headers' in req ? (req as Request) : undefined;
}

/**
 * Strapi's core controller hands `ctx.state.auth` to its sanitizers and validators, which check
 * the caller's permissions only when it is truthy: app code setting it to `false` before calling
 * the core action (`ctx.state.auth = false; return super.create(ctx)`) reads and writes as the
 * app's own code. (`undefined` or `null` become `{}` there, which is still checked.)
 */
function authCleared(ctx: unknown): boolean {
  const state = (ctx as { state?: unknown }).state;
  if (typeof state !== 'object' || state === null) return false;
  const { auth } = state as { auth?: unknown };
  return auth !== undefined && auth !== null && !auth;
}

/**
 * The access of the request behind `ctx` (users-permissions' `find` on each content-type); a context
 * the app built itself, with no request behind it, or whose `state.auth` it cleared, reads as the
 * app's own code does.
 */
export function callerAccess(ctx: unknown): QueryAccess {
  const req = requestOf(ctx);
  if (!req || authCleared(ctx)) return UNRESTRICTED;
  const { ability } = requestAuth(req);
  return { canRead: (uid) => ability.can(`${uid}.find`) };
}
