/**
 * Content-types an app's extension adds to a plugin's object (`plugin.contentTypes.<name> = { schema }`
 * in `src/extensions/<plugin>/strapi-server`). Strapi 4.26's plugin loader registers every entry of
 * the extended object's `contentTypes` under `plugin::<plugin>.<name>` before any register hook, so
 * such a type is as real as the plugin's own: stored, reachable through the entity service and the
 * query engine, in the GraphQL schema, and served over REST where the plugin's routes name it.
 */
import type { ContentTypeSource, Registry } from '../content-types/index.js';
import { ConfigError } from '../config/index.js';
import type { PluginExtension } from './plugin-extensions.js';
import type { PluginHolder } from './plugin-objects.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The entries of the plugins' objects that name no content-type of the registry, as sources for it.
 * As Strapi's content-type registry, the key must be the schema's `info.singularName` (start-up
 * stops naming the extension otherwise).
 */
export function addedPluginTypes(
  holders: ReadonlyMap<string, PluginHolder>,
  registry: Registry,
  extensions: readonly PluginExtension[],
): ContentTypeSource[] {
  const added: ContentTypeSource[] = [];
  for (const holder of holders.values()) {
    const contentTypes: unknown = holder.server.contentTypes;
    if (!isRecord(contentTypes)) continue;
    const label = extensions.find((extension) => extension.plugin === holder.name)?.label ?? holder.name;
    for (const [key, contentType] of Object.entries(contentTypes)) {
      if (registry.contentType(`plugin::${holder.name}.${key}`)) continue;
      const schema: unknown = isRecord(contentType) ? contentType.schema : undefined;
      const source = `${label} (contentTypes.${key})`;
      if (!isRecord(schema)) throw new ConfigError(label, `contentTypes.${key}`, 'a content-type is { schema: {...} }');
      const singularName: unknown = isRecord(schema.info) ? schema.info.singularName : undefined;
      if (singularName !== key)
        throw new ConfigError(
          label,
          `contentTypes.${key}`,
          `the key of a content-type must be its info.singularName (found ${key} and ${String(singularName)}), as Strapi requires`,
        );
      // checked when the registry is built, as a schema read from a file
      added.push({
        uid: `plugin::${holder.name}.${key}`,
        schema: structuredClone(schema) as unknown as ContentTypeSource['schema'],
        source,
        namespace: 'plugin',
      });
    }
  }
  return added;
}
