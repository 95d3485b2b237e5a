/**
 * `strapi.sanitizers` and `strapi.validators`: Strapi v4's registries of the app's extra
 * sanitizers and validators, keyed by path. Strapi 4.26 reads three of them, after its built-in
 * steps: `content-api.output` sanitizers in `sanitize.contentAPI.output` (every core action's
 * `sanitizeOutput`), `content-api.input` sanitizers in `sanitize.contentAPI.input` (create and
 * update's `sanitizeInput`), `content-api.input` validators in `validate.contentAPI.input` (a
 * controller's `validateInput`, which no core action calls). The helpers of `@strapi/utils` read
 * them through the global `strapi`; the core controllers here read them through `runRegistered`.
 * Strapi's GraphQL runs the input sanitizers in its create and update mutations (`appInputSanitizer`)
 * and no output sanitizer (its output sanitizing is only of polymorphic relation fields).
 */
import get from 'lodash/get.js';
import has from 'lodash/has.js';
import set from 'lodash/set.js';
import type { Registry } from '../content-types/index.js';
import type { QueryAccess } from '../query/index.js';
import { sanitizeInput } from './entry-shapes.js';
import { describeSchema } from './strapi-schema.js';

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

/** The registries of one `strapi` object. */
export interface AppRegistries {
  sanitizers: PathRegistry;
  validators: PathRegistry;
}

export const CONTENT_API_OUTPUT = 'content-api.output';
export const CONTENT_API_INPUT = 'content-api.input';

const WRITES = new Set(['create', 'update']);

/**
 * Whether a core action runs functions the app registered: output sanitizers (every action answers
 * an entry) or, for create and update, input sanitizers. Asked per request: an empty list is one look-up.
 */
export function extendsCoreAction(registries: AppRegistries, action: string): boolean {
  return (
    registries.sanitizers.get(CONTENT_API_OUTPUT).length > 0 ||
    (WRITES.has(action) && registries.sanitizers.get(CONTENT_API_INPUT).length > 0)
  );
}

/**
 * The functions registered at `path`, each made for `schema` (`fn(schema)`, as Strapi builds its
 * transforms) and run in turn on `data`, each awaited; a list is run entry by entry, as Strapi's
 * helpers do. With none registered, `data` as it is.
 */
export async function runRegistered(
  registry: PathRegistry,
  path: string,
  schema: unknown,
  data: unknown,
): Promise<unknown> {
  const registered = registry.get(path);
  if (registered.length === 0) return data;
  const transforms = registered.map((make) => {
    if (typeof make !== 'function') throw new TypeError(`strapi ${path}: a registered entry is not a function`);
    return (make as (schema: unknown) => unknown)(schema);
  });
  const runOne = async (entry: unknown) => {
    let value = entry;
    for (const transform of transforms) {
      if (typeof transform !== 'function')
        throw new TypeError(`strapi ${path}: a registered function did not return a function`);
      value = await (transform as (value: unknown) => unknown)(value);
    }
    return value;
  };
  if (!Array.isArray(data)) return runOne(data);
  const out: unknown[] = [];
  for (const entry of data) out.push(await runOne(entry));
  return out;
}

/**
 * `sanitize.contentAPI.input` of Strapi 4.26 for a content-type's write outside the core
 * controllers (GraphQL's create and update mutations): the built-in input sanitizing, then the
 * registered `content-api.input` sanitizers; `data` as it is while none is registered.
 */
export function appInputSanitizer(
  registry: Registry,
  registries: AppRegistries,
): (uid: string, data: unknown, access: QueryAccess) => Promise<unknown> {
  return async (uid, data, access) => {
    const schema = registry.contentType(uid);
    if (!schema || registries.sanitizers.get(CONTENT_API_INPUT).length === 0) return data;
    return runRegistered(
      registries.sanitizers,
      CONTENT_API_INPUT,
      describeSchema(schema),
      sanitizeInput(schema, data, access),
    );
  };
}
