import { ConfigError } from './config-error.js';

/** One entry of `config/middlewares`: `'strapi::cors'`, `{ name, config }` or `{ resolve, config }`. */
export interface MiddlewareEntry {
  /** `strapi::cors`, `global::cache`, … or the `resolve` path of a middleware of the app's own */
  name: string;
  /** true when given as `{ resolve }` (a package or a path) */
  resolved: boolean;
  config: Record<string, unknown>;
}

/** Strapi v4's list when the app has no `config/middlewares`. */
export const DEFAULT_MIDDLEWARES: readonly string[] = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::session',
  'strapi::query',
  'strapi::body',
  'strapi::favicon',
  'strapi::public',
];

const SHAPE = 'must be an array of middleware names or { name, config } / { resolve, config } objects';

function entry(file: string, item: unknown, index: number): MiddlewareEntry {
  if (typeof item === 'string' && item !== '') return { name: item, resolved: false, config: {} };
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    throw new ConfigError(file, `[${index}]`, SHAPE);
  const { name, resolve, config, ...rest } = item as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new ConfigError(file, `[${index}]`, `has unknown key(s) ${unknown.join(', ')}; ${SHAPE}`);
  if (config !== undefined && (config === null || typeof config !== 'object' || Array.isArray(config)))
    throw new ConfigError(file, `[${index}].config`, 'must be an object');
  const settings = (config ?? {}) as Record<string, unknown>;
  if (typeof name === 'string' && name !== '') return { name, resolved: false, config: settings };
  if (typeof resolve === 'string' && resolve !== '') return { name: resolve, resolved: true, config: settings };
  throw new ConfigError(file, `[${index}]`, 'needs a "name" or a "resolve"');
}

/** The configured middleware list, checked for shape (names are resolved by the middlewares layer). */
export function middlewareList(file: string, value: unknown): MiddlewareEntry[] {
  if (value === undefined) return DEFAULT_MIDDLEWARES.map((name) => ({ name, resolved: false, config: {} }));
  if (!Array.isArray(value)) throw new ConfigError(file, undefined, SHAPE);
  return value.map((item, index) => entry(file, item, index));
}
