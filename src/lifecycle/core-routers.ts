/**
 * The app's `src/api/<api>/routes/*` files made with `factories.createCoreRouter(uid, { only,
 * except, config })` of Strapi v4: which core actions of a content-type are served and which are
 * public (`config.<action>.auth: false`). While the files load, `require('@strapi/strapi')` gives
 * them the factories of strapi-factories.ts, whose router keeps its options readable. Files
 * exporting anything else (custom routes) are left to the "not run" notice.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importAppModule } from '../config/index.js';
import type { CoreRouteSettings } from '../rest/content-routes.js';
import { coreRouterRecord, withStrapiFactories, type CoreRouterOptions } from './strapi-factories.js';

const CORE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'] as const;
const ROUTE_FILE = /\.(js|cjs|ts)$/;

/** What a loaded file says about one content-type's core routes. */
export interface LoadedCoreRouter {
  file: string;
  uid: string;
  settings: CoreRouteSettings;
  /** actions whose policies or route middlewares are not run here */
  unrun: string[];
}

function settingsOf(options: CoreRouterOptions): { settings: CoreRouteSettings; unrun: string[] } {
  const served = CORE_ACTIONS.filter(
    (action) =>
      !(options.except ?? []).includes(action) && (options.only === undefined || options.only.includes(action)),
  );
  const config = options.config ?? {};
  const unrun = CORE_ACTIONS.filter(
    (action) => (config[action]?.policies?.length ?? 0) > 0 || (config[action]?.middlewares?.length ?? 0) > 0,
  );
  return {
    settings: {
      serves: (action) => (served as readonly string[]).includes(action),
      // a policy or middleware not run here may be the action's guard: without it, no opening up
      isPublic: (action) => config[action]?.auth === false && !(unrun as readonly string[]).includes(action),
    },
    unrun,
  };
}

/**
 * The `createCoreRouter` results among the app's route files. A file that cannot be loaded is
 * named to `warn` and leaves its content-type's routes as they are.
 */
export async function loadCoreRouters(appDir: string, warn: (message: string) => void): Promise<LoadedCoreRouter[]> {
  const apiDir = join(appDir, 'src', 'api');
  if (!existsSync(apiDir)) return [];
  const files = readdirSync(apiDir)
    .sort()
    .flatMap((api) => {
      const dir = join(apiDir, api, 'routes');
      return existsSync(dir)
        ? readdirSync(dir)
            .sort()
            .filter((name) => ROUTE_FILE.test(name) && !name.endsWith('.d.ts'))
            .map((name) => join(dir, name))
        : [];
    });
  return withStrapiFactories(async () => {
    const routers: LoadedCoreRouter[] = [];
    for (const file of files) {
      let exported: unknown;
      try {
        exported = await importAppModule(file, relative(appDir, file));
      } catch (err) {
        warn(`${err instanceof Error ? err.message : String(err)}; its routes are not read`);
        continue;
      }
      const record = coreRouterRecord(exported);
      if (!record) continue;
      const { uid, options } = record;
      routers.push({ file, uid, ...settingsOf(options) });
    }
    return routers;
  });
}
