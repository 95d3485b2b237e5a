/**
 * `strapi.auth`, Strapi v4's authentication service, as far as plugins use it:
 * - `verify(auth, config)`: as Strapi's, `config === false` passes, no `auth` is a 401, otherwise
 *   the strategy of `ctx.state.auth` decides (access/auth-state.ts: the route rules for `{ scope }`);
 *   strapi-plugin-slugify checks `{ scope: '<uid>.find' }` this way, and @strapi/utils'
 *   `sanitize.contentAPI.output` drops the relations a caller may not read with it;
 * - `register(type, strategy)`: the strategy is checked as Strapi checks it and kept; the
 *   `content-api` ones authenticate the requests Strapi's own strategies leave unauthenticated
 *   (access/app-strategies.ts); another type (`admin`) is never asked: a warning says so once.
 */
import { UnauthorizedError } from '../errors/index.js';
import type { AppAuthStrategy } from './app-auth-strategies.js';
import type { Logger } from '../logger.js';

export type AuthStrategy = AppAuthStrategy;

export interface StrapiAuth {
  register(type: string, strategy: AuthStrategy): StrapiAuth;
  verify(auth: unknown, config?: unknown): Promise<unknown>;
}

const INVALID_STRATEGY =
  'Invalid auth strategy. Expecting an object with properties {name: string, authenticate: function, verify: function}';

function strategyVerify(auth: unknown): ((auth: unknown, config: unknown) => unknown) | undefined {
  const strategy = typeof auth === 'object' && auth !== null ? (auth as { strategy?: unknown }).strategy : undefined;
  const verify = typeof strategy === 'object' && strategy !== null ? (strategy as AuthStrategy).verify : undefined;
  return typeof verify === 'function' ? verify.bind(strategy) : undefined;
}

const CONTENT_API = 'content-api';

/** The `content-api` strategies registered on an auth service, in the order registered. */
const contentApi = new WeakMap<StrapiAuth, () => readonly AuthStrategy[]>();
export function contentApiStrategies(auth: StrapiAuth): readonly AuthStrategy[] {
  return contentApi.get(auth)?.() ?? [];
}

export function createStrapiAuth(logger: Logger): StrapiAuth {
  const strategies = new Map<string, AuthStrategy[]>();
  const auth: StrapiAuth = {
    register(type, strategy) {
      if (typeof strategy?.authenticate !== 'function') throw new TypeError(INVALID_STRATEGY);
      if (strategy.verify !== undefined && typeof strategy.verify !== 'function') throw new TypeError(INVALID_STRATEGY);
      if (type !== CONTENT_API && !strategies.has(type))
        logger.warn(
          `strapi.auth.register('${type}', ${JSON.stringify(strategy.name ?? 'a strategy')}): Content Service serves ` +
            `only the content API ('${CONTENT_API}'); this strategy is kept but never asked`,
        );
      strategies.set(type, [...(strategies.get(type) ?? []), strategy]);
      return auth;
    },
    async verify(given, config = {}) {
      if (config === false) return undefined;
      if (!given) throw new UnauthorizedError();
      return strategyVerify(given)?.(given, config);
    },
  };
  contentApi.set(auth, () => strategies.get(CONTENT_API) ?? []);
  return auth;
}
