import type { Request } from 'express';
import { abilityFromActions } from '../../access/abilities.js';
import { UnrecognisedCredentialError, type Authenticator } from '../../access/ability.js';
import { UnauthorizedError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { authenticateApiToken } from './api-tokens.js';
import type { JwtVerifier } from './jwt.js';
import type { PermissionCache } from './permission-cache.js';
import { findUserWithRole, sanitizeUser, userCredentials } from './users.js';

/**
 * The bearer credential of a request, as Strapi v4 reads it: exactly `Bearer <token>`
 * (scheme case-insensitive). Anything else (`Token abc`, a lone word) is ignored and the request is public.
 */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts[1];
}

const looksLikeJwt = (token: string) => token.split('.').length === 3;

/**
 * Which of Strapi's own content-API strategies can authenticate a request: users-permissions
 * (no credential, the public role; or a JWT) or api-token (any other bearer value). The other one
 * answers `authenticated: false` for it.
 */
export function builtInStrategyFor(req: Request): 'users-permissions' | 'api-token' {
  const token = bearerToken(req);
  return token === undefined || looksLikeJwt(token) ? 'users-permissions' : 'api-token';
}

/**
 * Request → who is calling: no credential = the `public` role; a JWT = its user's role (the user
 * must exist and not be blocked); another bearer value = an API token. A bad, expired or revoked
 * credential is a 401 — never a silent fall-back to public.
 */
export function createAuthenticator(
  ctx: ServiceContext,
  deps: { jwt: JwtVerifier; apiTokenSalt: string; permissions: PermissionCache },
): Authenticator {
  return async (req) => {
    const token = bearerToken(req);
    if (token === undefined) {
      const actions = await deps.permissions.publicActions();
      const ability = abilityFromActions(actions);
      return actions.length > 0
        ? { strategy: 'public', ability }
        : { strategy: 'public', ability, unauthenticated: true };
    }
    if (looksLikeJwt(token)) {
      const verified = await deps.jwt.verify(req);
      if (!verified.ok) throw new UnrecognisedCredentialError();
      const found = await findUserWithRole(ctx, verified.payload.id);
      if (!found || found.user.blocked === true) throw new UnauthorizedError('Invalid credentials');
      const { user, role } = found;
      return {
        strategy: 'users-permissions',
        ability: abilityFromActions(await deps.permissions.actionsOfRole(role)),
        user: sanitizeUser(ctx, user),
        credentials: userCredentials(ctx, user, role),
      };
    }
    const checked = await authenticateApiToken(ctx, deps.apiTokenSalt, token);
    if (checked.ok) return checked.auth;
    if (checked.reason === 'expired') throw new UnauthorizedError('Token expired');
    throw new UnrecognisedCredentialError();
  };
}
