/**
 * The content-API authentication strategies a project registers (`strapi.auth.register('content-api',
 * strategy)`, or through `strapi.container.get('auth')`), asked as Strapi v4's auth service asks them:
 * after its own strategies (users-permissions, then API tokens) have not authenticated the caller
 * (no credential while the public role has no permission, a bearer value that is neither a valid JWT
 * nor a known API token), each in the order registered, with the request's Koa `ctx`:
 * - `{ error }`: a 401 with that message, the next strategies unasked;
 * - `{ authenticated: true, credentials, ability }`: the caller is who the strategy says
 *   (`ctx.state.auth` holds the strategy and its credentials; `ctx.state.user` is what the strategy
 *   set on `ctx.state`, as Strapi sets nothing there for it). What the caller may do: everything
 *   when the strategy has no `verify` (Strapi then verifies nothing), else what the `ability` it
 *   answered allows (`ability.can(action)`), nothing without one (see docs/strapi-deviations.md);
 * - anything else: the next strategy; when none authenticates, the built-in answer stands (a
 *   public caller, or the 401 of the credential nobody recognised).
 * A credential the built-ins reject for what it is (a blocked user, an expired token) is a 401
 * before any project strategy is asked, as in Strapi.
 */
import type { Request, Response } from 'express';
import { UnauthorizedError } from '../errors/index.js';
import { createKoaContext } from '../middlewares/koa-context.js';
import { builtInStrategyFor } from '../plugins/users-permissions/index.js';
import {
  ALLOW_ALL,
  UnrecognisedCredentialError,
  type Ability,
  type Authenticator,
  type RequestAuth,
} from '../access/ability.js';

export interface AppAuthStrategy {
  name?: string;
  authenticate(ctx: unknown): unknown;
  verify?(auth: unknown, config: unknown): unknown;
}

const NOTHING: Ability = { can: () => false };

function abilityOf(strategy: AppAuthStrategy, answered: unknown): Ability {
  if (typeof strategy.verify !== 'function') return ALLOW_ALL;
  const can = typeof answered === 'object' && answered !== null ? (answered as { can?: unknown }).can : undefined;
  if (typeof can !== 'function') return NOTHING;
  return { can: (action) => Boolean(can.call(answered, action)) };
}

function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return undefined;
}

async function askStrategies(req: Request, strategies: readonly AppAuthStrategy[]): Promise<RequestAuth | undefined> {
  for (const strategy of strategies) {
    const ctx = createKoaContext(req, req.res as Response, { body: undefined, explicitStatus: false });
    const state: Record<string, unknown> = {};
    ctx.state = state;
    const answer = (await strategy.authenticate(ctx)) as Record<string, unknown> | null | undefined;
    const { authenticated = false, credentials, ability = null, error = null } = answer ?? {};
    if (error !== null && error !== undefined) throw new UnauthorizedError(errorMessage(error));
    if (authenticated)
      return {
        strategy: 'app',
        ability: abilityOf(strategy, ability),
        credentials: credentials as RequestAuth['credentials'],
        app: { strategy, ability, stateUser: state.user },
      };
  }
  return undefined;
}

/** `builtIn`, then the project's content-API strategies (`strategies()`, read on each request). */
export function withAppStrategies(builtIn: Authenticator, strategies: () => readonly AppAuthStrategy[]): Authenticator {
  const asked = new WeakMap<Request, Promise<RequestAuth>>();
  const authenticate = async (req: Request): Promise<RequestAuth> => {
    const own = strategies();
    let builtInAuth: RequestAuth;
    try {
      builtInAuth = await builtIn(req);
    } catch (err) {
      if (!(err instanceof UnrecognisedCredentialError) || own.length === 0) throw err;
      const found = await askStrategies(req, own);
      if (found) return found;
      throw err;
    }
    if (!builtInAuth.unauthenticated || own.length === 0) return builtInAuth;
    return (await askStrategies(req, own)) ?? builtInAuth;
  };
  // a request is authenticated once, however many routes look at its caller
  return (req) => {
    let auth = asked.get(req);
    if (!auth) {
      auth = authenticate(req);
      asked.set(req, auth);
    }
    return auth;
  };
}

function isStrategy(entry: unknown): entry is AppAuthStrategy {
  return typeof entry === 'object' && entry !== null && typeof (entry as AppAuthStrategy).authenticate === 'function';
}

/**
 * The caller of a route whose `config.auth.strategies` lists the strategies to try, as Strapi 4.26's
 * auth service tries them: in the listed order, a name being one of the content-API strategies
 * (`users-permissions`, `api-token`, a project's by its `name`; an unknown name is skipped) and an
 * object a strategy of its own. The first that authenticates the caller decides; one answering an
 * error is a 401 with it; none: 401 `Missing or invalid credentials`. Without the users-permissions
 * plugin everything is allowed, as on every route.
 */
export async function authenticateWithRouteStrategies(
  req: Request,
  listed: readonly unknown[],
  builtIn: Authenticator,
  own: readonly AppAuthStrategy[],
): Promise<RequestAuth> {
  // asked once: whichever built-in strategy the request is for reads its answer
  const builtInAnswer = builtIn(req);
  const settled = await builtInAnswer.catch(() => undefined);
  if (settled?.strategy === 'none') return settled;
  for (const entry of listed) {
    if (entry === 'users-permissions' || entry === 'api-token') {
      if (builtInStrategyFor(req) !== entry) continue;
      let auth: RequestAuth;
      try {
        auth = await builtInAnswer;
      } catch (err) {
        if (err instanceof UnrecognisedCredentialError) continue;
        throw err;
      }
      if (auth.unauthenticated) continue;
      return auth;
    }
    const strategy = typeof entry === 'string' ? own.find((candidate) => candidate.name === entry) : entry;
    if (!isStrategy(strategy)) continue;
    const found = await askStrategies(req, [strategy]);
    if (found) return found;
  }
  throw new UnauthorizedError('Missing or invalid credentials');
}
