/**
 * The app's `src/api/<api>/routes/*` files, read as Strapi v4 reads them: every api folder, then
 * every file of its routes folder, in name order. A file is a `factories.createCoreRouter(uid,
 * { prefix, only, except, config })` result or a router `{ prefix, routes: [...] }` (CommonJS,
 * `export default`, TypeScript). While the files load, `require('@strapi/strapi')` gives them the
 * factories of strapi-factories.ts, whose router keeps its options readable.
 * A file exporting a function is not called (Strapi v4 serves no route from it): it is named in a
 * warning; one with no `routes` (an empty file) is passed over, as Strapi does. A router's `type` is not read: Strapi serves every api's routes in the content API.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConfigError, importAppModule } from '../config/index.js';
import type { AppRoute } from './route-endpoint.js';
import {
  coreRouterRecord,
  withStrapiFactories,
  type CoreRouterLookup,
  type CoreRouterOptions,
} from './strapi-factories.js';

const ROUTE_FILE = /\.(js|cjs|ts)$/;
/** `config.<action>` of a core router: the route config Strapi merges into that action's route. */
export type CoreActionConfig = NonNullable<AppRoute['config']>;

interface FileBase {
  /** absolute path */
  file: string;
  /** relative to the app, for messages */
  label: string;
  /** the api folder's name */
  api: string;
}

/** One route file, as Strapi registers it. */
export type RouteFile =
  | (FileBase & { kind: 'core'; uid: string; options: CoreRouterOptions })
  | (FileBase & { kind: 'custom'; prefix: string | undefined; routes: AppRoute[] });

/** The route files in Strapi's order: api folders by name, then each one's files by name. */
function routeFilePaths(apiDir: string): Array<{ api: string; file: string }> {
  return readdirSync(apiDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort()
    .flatMap((api) => {
      const dir = join(apiDir, api, 'routes');
      return existsSync(dir)
        ? readdirSync(dir)
            .sort()
            .filter((name) => ROUTE_FILE.test(name) && !name.endsWith('.d.ts'))
            .map((name) => ({ api, file: join(dir, name) }))
        : [];
    });
}

function asRouter(exported: unknown): { prefix?: unknown; routes?: unknown } | undefined {
  return typeof exported === 'object' && exported !== null ? exported : undefined;
}

/**
 * A core router's content-type, for its `routes` list (an app wrapping it reads them while its file
 * loads, before the schemas are built): `api::<api>.<name>` is `src/api/<api>/content-types/<name>/schema.json`.
 */
function schemaLookup(apiDir: string): CoreRouterLookup {
  return (uid) => {
    const match = /^api::([^.]+)\.(.+)$/.exec(uid);
    const file = match ? join(apiDir, match[1]!, 'content-types', match[2]!, 'schema.json') : undefined;
    if (!file || !existsSync(file)) return undefined;
    let schema: { kind?: string; info?: { singularName?: string; pluralName?: string } };
    try {
      schema = JSON.parse(readFileSync(file, 'utf8')) as typeof schema;
    } catch {
      return undefined; // the schema loader names what is wrong with it
    }
    const { singularName = match![2]!, pluralName = singularName } = schema.info ?? {};
    return { kind: schema.kind === 'singleType' ? 'singleType' : 'collectionType', singularName, pluralName };
  };
}

/**
 * Every route file of the app. A file that cannot be loaded, or whose router is not
 * `{ routes: [...] }`, stops start-up naming it; a file exporting a function is named to `warn`.
 */
export async function loadRouteFiles(appDir: string, warn: (message: string) => void): Promise<RouteFile[]> {
  const apiDir = join(appDir, 'src', 'api');
  if (!existsSync(apiDir)) return [];
  return withStrapiFactories(async () => {
    const files: RouteFile[] = [];
    for (const { api, file } of routeFilePaths(apiDir)) {
      const label = relative(appDir, file);
      const exported = await importAppModule(file, label);
      const core = coreRouterRecord(exported);
      if (core) {
        files.push({ file, label, api, kind: 'core', uid: core.uid, options: core.options });
        continue;
      }
      if (typeof exported === 'function') {
        warn(
          `${label} exports a function: Strapi v4 does not call it, so its routes are not served (export the router object)`,
        );
        continue;
      }
      const router = asRouter(exported);
      let routes: unknown;
      try {
        // a getter, often: a router wrapping a core router's list (`innerRouter.routes.concat(...)`)
        routes = router?.routes;
      } catch (err) {
        throw new ConfigError(label, undefined, `reading its routes failed: ${(err as Error).message}`);
      }
      // Strapi passes over a router without routes (an empty or commented-out file)
      if (router && routes === undefined) continue;
      if (!router || !Array.isArray(routes))
        throw new ConfigError(label, undefined, 'a route file exports createCoreRouter(...) or { routes: [...] }');
      if (router.prefix !== undefined && typeof router.prefix !== 'string')
        throw new ConfigError(label, undefined, 'prefix must be a string');
      files.push({ file, label, api, kind: 'custom', prefix: router.prefix, routes: routes as AppRoute[] });
    }
    return files;
  }, schemaLookup(apiDir));
}
