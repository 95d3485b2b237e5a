import { ForbiddenError, UnauthorizedError } from '../errors/index.js';
import type { Ability, RequestAuth } from './ability.js';
import { verifyRouteAuth, type RouteAuthConfig } from './route-auth.js';

/**
 * `ctx.state.auth` as Strapi v4's auth service sets it: `{ strategy, credentials, ability }`. The
 * strategy's `verify(auth, { scope })` decides as a route with that scope would (401, 403, or
 * nothing), which `strapi.auth.verify` and @strapi/utils' `sanitize.contentAPI.output` call.
 */
export interface StrapiAuthState {
  strategy: { name?: string; verify?(auth: unknown, config?: RouteAuthConfig): unknown };
  credentials: unknown;
  ability: Ability | unknown;
}

export function authState(auth: RequestAuth): StrapiAuthState {
  // a project's strategy is itself, with the credentials and ability it answered
  if (auth.app)
    return { strategy: auth.app.strategy, credentials: auth.credentials ?? null, ability: auth.app.ability };
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

/**
 * `ctx.state.user` of a request: the user Strapi's users-permissions strategy sets; for a project's
 * strategy, what it set on `ctx.state.user` itself (Strapi's auth service sets nothing there).
 */
export function stateUser(auth: RequestAuth): unknown {
  return auth.app ? auth.app.stateUser : auth.credentials;
}
