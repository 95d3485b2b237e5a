/**
 * The content-types' lifecycle files of a Strapi v4 project:
 * `src/api/<api>/content-types/<name>/lifecycles.{js,cjs,mjs,ts}`, each exporting an object of
 * hooks (`beforeCreate(event)`, `afterUpdate(event)`...) for `api::<api>.<name>`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConfigError, importAppModule } from '../config/index.js';
import type { Registry } from '../content-types/index.js';
import type { HookObject } from './db-lifecycles.js';
import { withStrapiFactories } from './strapi-factories.js';

const LIFECYCLES_FILE = /^lifecycles\.(js|cjs|mjs|ts)$/;

function folders(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory()
    ? readdirSync(dir)
        .filter((entry) => statSync(join(dir, entry)).isDirectory())
        .sort()
    : [];
}

const V3_LIFECYCLES =
  'is Strapi v3\'s way to declare the hooks, which Strapi v4 refuses too ("Content Type Definition is invalid"); ' +
  'export them at the top level, taking an event: module.exports = { beforeCreate(event) { ... } }';

/** Each content-type's hooks by uid; a file that is no object of functions stops the start naming it. */
export async function loadModelLifecycles(appDir: string, registry: Registry): Promise<Map<string, HookObject>> {
  const apiDir = join(appDir, 'src', 'api');
  const hooks = new Map<string, HookObject>();
  for (const api of folders(apiDir))
    for (const name of folders(join(apiDir, api, 'content-types'))) {
      const dir = join(apiDir, api, 'content-types', name);
      const file = readdirSync(dir)
        .sort()
        .find((entry) => LIFECYCLES_FILE.test(entry));
      const uid = `api::${api}.${name}`;
      if (!file || !registry.contentType(uid)) continue;
      const path = join(dir, file);
      const display = relative(appDir, path);
      const exported = await withStrapiFactories(() => importAppModule(path, display));
      if (exported === undefined || exported === null) continue;
      if (typeof exported !== 'object' || Array.isArray(exported))
        throw new ConfigError(display, undefined, 'must export an object of hooks { beforeCreate(event), ... }');
      const object: HookObject = {};
      for (const [key, value] of Object.entries(exported)) {
        if (key === '__esModule') continue;
        if (key === 'lifecycles' && typeof value === 'object') throw new ConfigError(display, key, V3_LIFECYCLES);
        if (typeof value !== 'function') throw new ConfigError(display, key, 'must be a function');
        object[key] = value;
      }
      hooks.set(uid, object);
    }
  return hooks;
}
