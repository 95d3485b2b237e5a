import type { Request } from 'express';
import type { RequestAuth } from '../../access/ability.js';
import { ForbiddenError } from '../../errors/index.js';
import { requestAuth } from '../../operations/request-context.js';
import type { ServiceContext } from '../../service-context.js';
import type { JwtVerifier } from './jwt.js';
import type { ProvidersRegistry } from './providers/registry.js';
import type { Secrets } from './secrets.js';
import type { UsersPermissionsSettings } from './settings.js';

/** What the plugin's routes share: the service, its settings and secrets. */
export interface UsersPermissionsRuntime {
  ctx: ServiceContext;
  settings: UsersPermissionsSettings;
  secrets: Secrets;
  jwt: JwtVerifier;
  /** the sign-in providers (`providers-registry`), the app's added in its `register` */
  providers: ProvidersRegistry;
}

/** The caller's `RequestAuth`, after checking it may perform `action` (403 otherwise, as Strapi). */
export function authorize(req: Request, action: string): RequestAuth {
  const auth = requestAuth(req);
  if (!auth.ability.can(action)) throw new ForbiddenError();
  return auth;
}
