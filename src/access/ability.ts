import { UnauthorizedError } from '../errors/index.js';

/** What one request may do: actions like `api::article.article.find`. */
export interface Ability {
  can(action: string): boolean;
}

export const ALLOW_ALL: Ability = { can: () => true };

export interface RequestAuth {
  /** `public` (no credentials), `users-permissions` (a user's JWT), `api-token`, `app` (a project's strategy) */
  strategy: 'public' | 'users-permissions' | 'api-token' | 'app' | 'none';
  ability: Ability;
  /** the authenticated user (users-permissions), without private fields */
  user?: { id: number } & Record<string, unknown>;
  /**
   * the same user as Strapi's users-permissions strategy hands it to app code (`ctx.state.user`,
   * `ctx.state.auth.credentials`): its stored row, private fields included, with its role
   */
  credentials?: { id: number } & Record<string, unknown>;
  /** the API token used, if any */
  token?: { id: number; type: string };
  /** public with no permission at all: Strapi's own strategies did not authenticate the caller */
  unauthenticated?: true;
  /** the project's strategy that authenticated the caller (access/app-strategies.ts) */
  app?: { strategy: { name?: string }; ability: unknown; stateUser: unknown };
}

/**
 * A bearer value no built-in strategy recognises (neither a valid JWT nor a known API token), where
 * Strapi's strategies answer `authenticated: false` and the next strategy is asked.
 */
export class UnrecognisedCredentialError extends UnauthorizedError {
  constructor() {
    super('Missing or invalid credentials');
  }
}

/** Decides who a request is; throws UnauthorizedError for a bad or expired credential. */
export type Authenticator = (req: import('express').Request) => Promise<RequestAuth>;

/** Without the users-permissions plugin everything is allowed. */
export const allowAll: Authenticator = async () => ({ strategy: 'none', ability: ALLOW_ALL });
