import { adminUserType } from './admin-user.js';
import { withAttributeChanges, type AttributeChanges } from './attribute-changes.js';
import { applyExtensions } from './extensions.js';
import { loadSchemas } from './load.js';
import type { ComponentSource, ContentTypeSource } from './normalize.js';
import type { SchemaNotice } from './notices.js';
import { Registry, type RegistryOptions } from './registry.js';
import { schemaKeyTypos } from './schema-key-typos.js';

export interface AppRegistry {
  registry: Registry;
  notices: SchemaNotice[];
  /**
   * The registry again from the same schemas with the app's code's changes to their attributes
   * (`changedBy`: the code named in messages about them); its notices are the whole start-up's.
   */
  rebuild(changes: ReadonlyMap<string, AttributeChanges>, changedBy: (uid: string) => string): AppRegistry;
  /** the registry again with content-types the app's code added (an extension's new plugin type); what is still missing waits */
  withTypes(added: readonly ContentTypeSource[]): AppRegistry;
}

/**
 * The registry of an app: its schemas, Strapi's `admin::user`, the enabled plugins' content-types with the app's
 * extensions applied, and what start-up should log about them (ignored code other than
 * `runningCode`, unknown custom fields, relations read differently).
 */
export function buildAppRegistry(
  appDir: string,
  pluginTypes: ContentTypeSource[],
  options: RegistryOptions,
  runningCode: ReadonlySet<string> = new Set(),
): AppRegistry {
  const loaded = loadSchemas(appDir, runningCode);
  const notices = [...loaded.notices, ...schemaKeyTypos(appDir, [...loaded.contentTypes, ...loaded.components])];
  // extensions apply to the built-in plugins' types and to the project's local plugins' alike
  // a local plugin's types as its server code exports them win over its schema files read from disk
  const given = new Set(pluginTypes.map((type) => type.uid));
  const fromDisk = loaded.contentTypes.filter((type) => !given.has(type.uid));
  const types = applyExtensions([adminUserType(), ...pluginTypes, ...fromDisk], loaded.extensions, notices);
  const addedByCode = new Set<string>();
  const built = (contentTypes: ContentTypeSource[], components: ComponentSource[], rebuilt = false): AppRegistry => {
    // what the app's code may still fix waits for it; once it ran, it stops start-up
    const registry = Registry.build(contentTypes, components, {
      ...options,
      deferMissingInverse: !rebuilt,
      addedByCode,
    });
    return {
      registry,
      notices: [...notices, ...registry.notices],
      rebuild: (changes, changedBy) => {
        const source = (type: { uid: string }) => `${type.uid} as ${changedBy(type.uid)} changed it`;
        return built(
          withAttributeChanges(contentTypes, changes, source),
          withAttributeChanges(components, changes, source),
          true,
        );
      },
      withTypes: (added) => {
        for (const type of added) addedByCode.add(type.uid);
        return built([...contentTypes, ...added], components);
      },
    };
  };
  return built(types, loaded.components);
}
