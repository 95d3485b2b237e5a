/**
 * `strapi.sanitizers` and `strapi.validators`, Strapi v4's registries of extra content-API
 * sanitizers and validators (`get(path)`, `add(path, fn)`, `set`, `has`; the `content-api` paths
 * exist from the start). @strapi/utils' `sanitize.contentAPI.output`, which plugins call
 * (strapi-plugin-slugify), reads them. What an app adds is kept for such callers; the service's
 * own REST and GraphQL answers do not run it (one warning per path).
 */
import get from 'lodash/get.js';
import has from 'lodash/has.js';
import set from 'lodash/set.js';
import type { Logger } from '../logger.js';

export interface StrapiFunctionRegistry {
  get(path: string): unknown[];
  add(path: string, fn: unknown): StrapiFunctionRegistry;
  set(path: string, value?: unknown[]): StrapiFunctionRegistry;
  has(path: string): boolean;
}

export function createFunctionRegistry(
  name: 'sanitizers' | 'validators',
  paths: string[],
  logger: Logger,
): StrapiFunctionRegistry {
  const tree: Record<string, unknown> = {};
  for (const path of paths) set(tree, path, []);
  const warned = new Set<string>();
  const registry: StrapiFunctionRegistry = {
    get: (path) => get(tree, path, []) as unknown[],
    add(path, fn) {
      if (!warned.has(path)) {
        warned.add(path);
        logger.warn(
          `strapi.${name}.add('${path}'): kept for plugins that run @strapi/utils' sanitize and validate; ` +
            "Content Service's own answers do not run it",
        );
      }
      registry.get(path).push(fn);
      return registry;
    },
    set(path, value = []) {
      set(tree, path, value);
      return registry;
    },
    has: (path) => has(tree, path),
  };
  return registry;
}
