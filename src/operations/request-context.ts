import type { Request } from 'express';
import { ALLOW_ALL, type RequestAuth } from '../access/ability.js';
import type { OperationContext } from './index.js';
import type { ServiceContext } from '../service-context.js';

/** `req.auth`, set by the authentication middleware before any /api route. */
export function requestAuth(req: Request): RequestAuth {
  return (req as Request & { auth?: RequestAuth }).auth ?? { strategy: 'none', ability: ALLOW_ALL };
}

export function setRequestAuth(req: Request, auth: RequestAuth): void {
  (req as Request & { auth?: RequestAuth }).auth = auth;
}

/** The operation context of one request: the service plus what this caller may read. */
export function operationContext(service: ServiceContext, req: Request): OperationContext {
  const { ability } = requestAuth(req);
  return { ...service, access: { canRead: (uid) => ability.can(`${uid}.find`) } };
}

/** The qs-parsed query string (Express is set up with qs; see app.ts). */
export function rawQuery(req: Request): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}
