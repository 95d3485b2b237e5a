/**
 * `strapi.sanitizers` and `strapi.validators`: Strapi v4's registries of the app's extra
 * sanitizers and validators, keyed by path (`content-api.output`, `content-api.input`). The
 * helpers of `@strapi/utils` (`sanitize.contentAPI.output(data, schema)`, `validate.contentAPI.query`)
 * read them through the global `strapi`, so an app's controller calling those helpers needs them.
 */
import get from 'lodash/get.js';
import has from 'lodash/has.js';
import set from 'lodash/set.js';

export interface PathRegistry {
  /** the functions at `path` (an empty list when none) */
  get(path: string): unknown[];
  add(path: string, fn: unknown): PathRegistry;
  set(path: string, value?: unknown[]): PathRegistry;
  has(path: string): boolean;
}

/**
 * Strapi 4.26's registry, to the letter: `add` pushes onto what `get` answers, so on a path never
 * `set` it pushes onto a fresh empty list and is lost (Strapi's users-permissions adds its output
 * sanitizer that way, to no effect); an app that wants its sanitizer run calls `set` first.
 */
export function createPathRegistry(): PathRegistry {
  const entries: Record<string, unknown> = {};
  const registry: PathRegistry = {
    get: (path) => get(entries, path, []) as unknown[],
    add(path, fn) {
      registry.get(path).push(fn);
      return registry;
    },
    set(path, value = []) {
      set(entries, path, value);
      return registry;
    },
    has: (path) => has(entries, path),
  };
  return registry;
}
