import jsonwebtoken from 'jsonwebtoken';
import { ConfigError, type ServiceConfig } from '../../config/index.js';
import type { GrantSettings } from './providers/grant-settings.js';

/** `plugins['users-permissions'].config`, typed and defaulted (names as in Strapi v4). */
export interface UsersPermissionsSettings {
  jwtSecret?: string;
  jwt: { expiresIn: string | number };
  ratelimit: { enabled: boolean; max: number; intervalMs: number };
  /**
   * extra user attributes register accepts besides username, email, password; undefined (not
   * configured): Strapi 4.26's default, every attribute a client may write
   */
  allowedFields: string[] | undefined;
  /** where reset-password links point when the advanced setting `email_reset_password` is unset */
  resetPasswordUrl: string;
  /**
   * sign-in providers' settings (`{ github: { enabled, key, secret, callback, scope } }`), written
   * over the store's `grant` key at every start: how a deployment without Strapi's admin sets them
   */
  providers: GrantSettings;
}

/** A `jwt.expiresIn` jsonwebtoken signs with ("30d", "12h", seconds), checked by signing once. */
function isTimespan(value: unknown): value is string | number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0;
  if (typeof value !== 'string') return false;
  try {
    jsonwebtoken.sign({}, 'check', { expiresIn: value as jsonwebtoken.SignOptions['expiresIn'] });
    return true;
  } catch {
    return false;
  }
}

/** koa2-ratelimit's `interval`: milliseconds, or `{ ms, sec, min, hour }` added up; undefined: 5 minutes. */
export function intervalMs(file: string, value: unknown, key = 'users-permissions.config.ratelimit.interval'): number {
  if (value === undefined) return 5 * 60_000;
  if (typeof value === 'number' && value > 0) return value;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const n = (k: string) => (typeof v[k] === 'number' ? (v[k] as number) : 0);
    const ms = n('ms') + n('sec') * 1000 + n('min') * 60_000 + n('hour') * 3_600_000;
    if (ms > 0) return ms;
  }
  throw new ConfigError(file, key, 'must be a number of milliseconds or { min, sec, hour }');
}

export function usersPermissionsSettings(config: ServiceConfig): UsersPermissionsSettings {
  const raw = config.plugins['users-permissions']?.config ?? {};
  const file = (key: string) => config.fileOf('plugins', `users-permissions.config.${key}`);
  const jwt = (raw.jwt ?? {}) as Record<string, unknown>;
  const rate = (raw.ratelimit ?? {}) as Record<string, unknown>;
  const register = (raw.register ?? {}) as Record<string, unknown>;
  const max = rate.max ?? 5;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
    throw new ConfigError(
      file('ratelimit.max'),
      'users-permissions.config.ratelimit.max',
      'must be a positive integer',
    );
  const expiresIn = jwt.expiresIn ?? '30d';
  if (!isTimespan(expiresIn))
    throw new ConfigError(
      file('jwt.expiresIn'),
      'users-permissions.config.jwt.expiresIn',
      `must be a timespan like "30d", "12h" or "7 days", or a number of seconds, got ${JSON.stringify(expiresIn)}`,
    );
  const allowed = register.allowedFields;
  if (allowed !== undefined && (!Array.isArray(allowed) || allowed.some((f) => typeof f !== 'string')))
    throw new ConfigError(
      file('register.allowedFields'),
      'users-permissions.config.register.allowedFields',
      'must be an array of attribute names',
    );
  const providers = raw.providers ?? {};
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(providers) || !Object.values(providers).every(isObject))
    throw new ConfigError(
      file('providers'),
      'users-permissions.config.providers',
      'must be an object of providers, each an object of settings ({ github: { enabled: true, key, secret, callback } })',
    );
  return {
    providers: providers as GrantSettings,
    jwtSecret: typeof raw.jwtSecret === 'string' && raw.jwtSecret !== '' ? raw.jwtSecret : undefined,
    jwt: { expiresIn },
    ratelimit: {
      enabled: rate.enabled !== false,
      max,
      intervalMs: intervalMs(file('ratelimit.interval'), rate.interval),
    },
    allowedFields: allowed as string[] | undefined,
    resetPasswordUrl:
      typeof raw.resetPasswordUrl === 'string' ? raw.resetPasswordUrl : 'http://localhost:1337/reset-password',
  };
}
