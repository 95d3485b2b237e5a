import { ForbiddenError, UnauthorizedError } from '../errors/index.js';
import type { Ability, RequestAuth } from './ability.js';
import { verifyRouteAuth, type RouteAuthConfig } from './route-auth.js';

/**
 * `ctx.state.auth` as Strapi v4's auth service sets it: `{ strategy, credentials, ability }`. The
 * strategy's `verify(auth, { scope })` decides as a route with that scope would (401, 403, or
 * nothing), which `strapi.auth.verify` and @strapi/utils' `sanitize.contentAPI.output` call.
 */
export interface StrapiAuthState {
  strategy: { name: string; verify(auth: unknown, config?: RouteAuthConfig): void };
  credentials: unknown;
  ability: Ability;
}

export function authState(auth: RequestAuth): StrapiAuthState {
  return {
    strategy: {
      name: auth.strategy,
      verify(_auth, config = {}) {
        const verdict = verifyRouteAuth(auth, config);
        if (verdict === 'unauthorized') throw new UnauthorizedError();
        if (verdict === 'forbidden') throw new ForbiddenError();
      },
    },
    credentials: auth.credentials ?? auth.token ?? null,
    ability: auth.ability,
  };
}
