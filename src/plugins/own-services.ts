/**
 * The built-in plugins' own services on each `strapi` object the service built, for the package
 * files that stand for Strapi's service factories (`users-permissions/package-files/`): they make
 * the plugin's own service even where the app's object holds its wrapper, which calls them.
 */
type OwnServiceLookup = (plugin: string, name: string) => unknown;

const lookups = new WeakMap<object, OwnServiceLookup>();

/** Called once per `strapi` object, when its plugins' objects exist. */
export function recordOwnServices(strapi: object, lookup: OwnServiceLookup): void {
  lookups.set(strapi, lookup);
}

/** The plugin's own service `name` on `strapi` (undefined: no such object, plugin or service). */
export function ownPluginService(strapi: unknown, plugin: string, name: string): unknown {
  return typeof strapi === 'object' && strapi !== null ? lookups.get(strapi)?.(plugin, name) : undefined;
}
