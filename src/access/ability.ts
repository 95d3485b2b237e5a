/** What one request may do: actions like `api::article.article.find`. */
export interface Ability {
  can(action: string): boolean;
}

export const ALLOW_ALL: Ability = { can: () => true };

export interface RequestAuth {
  /** `public` (no credentials), `users-permissions` (a user's JWT), `api-token` */
  strategy: 'public' | 'users-permissions' | 'api-token' | 'none';
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
}

/** Decides who a request is; throws UnauthorizedError for a bad or expired credential. */
export type Authenticator = (req: import('express').Request) => Promise<RequestAuth>;

/** Without the users-permissions plugin everything is allowed. */
export const allowAll: Authenticator = async () => ({ strategy: 'none', ability: ALLOW_ALL });
