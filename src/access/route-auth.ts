/**
 * Who may call a route the app added through `strapi.server`, decided as Strapi v4's auth service
 * and its content-API strategies (users-permissions, API tokens) decide it:
 * - `config.auth: false`: anyone, and the caller is not even looked at (`ctx.state.user` stays unset);
 * - a route outside the content API (`strapi.server.routes([...])`, a plugin's admin route): no
 *   strategy serves it, so every caller is refused with 401 unless `auth` is false;
 * - a content-API route (`{ type: 'content-api', routes }`): with `config.auth.scope` (actions such
 *   as `api::article.article.find`) the caller's role or token must allow every one of them (403);
 *   without a scope, an authenticated user or a full-access token may call it, the public may not (401).
 */
import type { RequestAuth } from './ability.js';

export type RouteApi = 'content-api' | 'api' | 'admin';

/**
 * `config.auth` of a route: false, or `{ scope, strategies }` (one action or several; the content-API
 * strategies to try, by name or as strategy objects, instead of all of them), or absent.
 */
export type RouteAuthConfig = false | { scope?: string | string[]; strategies?: unknown[] } | undefined;

export type RouteAuthVerdict = 'allowed' | 'unauthorized' | 'forbidden';

const READ_ACTION = /\.(find|findOne)$/;

function scopes(config: RouteAuthConfig): string[] | undefined {
  const scope = config === false ? undefined : config?.scope;
  if (scope === undefined) return undefined;
  return Array.isArray(scope) ? scope : [scope];
}

/** The verdict for a caller already authenticated for a content-API route (`auth` is not false). */
export function verifyRouteAuth(auth: RequestAuth, config: RouteAuthConfig): RouteAuthVerdict {
  const scope = scopes(config);
  const every = (test: (action: string) => boolean) => scope !== undefined && scope.every(test);
  switch (auth.strategy) {
    case 'none':
      return 'allowed';
    case 'api-token':
      if (auth.token?.type === 'full-access') return 'allowed';
      if (auth.token?.type === 'read-only')
        return every((action) => READ_ACTION.test(action)) ? 'allowed' : 'forbidden';
      return every((action) => auth.ability.can(action)) ? 'allowed' : 'forbidden';
    case 'users-permissions':
    case 'app':
      return scope === undefined || every((action) => auth.ability.can(action)) ? 'allowed' : 'forbidden';
    case 'public':
      if (scope === undefined) return 'unauthorized';
      return every((action) => auth.ability.can(action)) ? 'allowed' : 'forbidden';
  }
}
