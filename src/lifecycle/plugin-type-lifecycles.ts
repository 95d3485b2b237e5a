/**
 * The `lifecycles` of the plugins' content-type definitions (`contentTypes: { <name>: { schema,
 * lifecycles } }`): a local or installed plugin's own, or what an app's extension put on a
 * built-in plugin's type (`plugin.contentTypes.user.lifecycles = {...}`). Strapi 4.26 copies them
 * onto the content-type and builds its database models from the content-types after register, so
 * its models subscriber runs them as it runs an api type's `lifecycles` file.
 */
import type { Registry } from '../content-types/index.js';
import type { HookObject } from './db-lifecycles.js';
import type { PluginHolder } from './plugin-objects.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each plugin content-type's definition hooks (its functions only), by uid. */
export function pluginTypeLifecycles(
  holders: ReadonlyMap<string, PluginHolder>,
  registry: Registry,
): Map<string, HookObject> {
  const found = new Map<string, HookObject>();
  for (const holder of holders.values()) {
    const contentTypes: unknown = holder.server.contentTypes;
    if (!isRecord(contentTypes)) continue;
    for (const [key, definition] of Object.entries(contentTypes)) {
      if (!isRecord(definition) || !isRecord(definition.lifecycles)) continue;
      const schema = isRecord(definition.schema) ? definition.schema : {};
      const info = isRecord(schema.info) ? schema.info : {};
      const uid = `plugin::${holder.name}.${typeof info.singularName === 'string' ? info.singularName : key}`;
      if (!registry.contentType(uid)) continue;
      const hooks = Object.entries(definition.lifecycles).filter(([, hook]) => typeof hook === 'function');
      if (hooks.length > 0) found.set(uid, Object.fromEntries(hooks));
    }
  }
  return found;
}
