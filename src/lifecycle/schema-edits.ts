/**
 * Content-type and component attributes the app's code changes before the database is used, as
 * Strapi v4 takes them: an extension's `plugin.contentTypes.<type>.schema.attributes` (added,
 * replaced, removed, or the whole `attributes`/`schema` replaced), then the register hooks'
 * `strapi.contentType(uid).attributes`, `strapi.contentTypes[uid]`, `strapi.components[uid]`,
 * `strapi.plugin(name).contentTypes.<type>` (Strapi creates its content-types from the extended
 * plugin objects, and builds the database metadata from them after every register). Here the
 * registry is built from the files first: these edits record what each schema's attributes were
 * before any code ran, hand the code mutable copies while it may change them, and return the
 * differences for the registry to be rebuilt.
 */
import { relative } from 'node:path';
import type { AttributeChanges, Component, ContentType, Registry, SchemaAttribute } from '../content-types/index.js';
import type { PluginExtension } from './plugin-extensions.js';
import type { PluginHolder } from './plugin-objects.js';
import { describeSchema, type StrapiContentType } from './strapi-schema.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** the attributes of each content-type of a plugin's object, by uid (what is no object is left out) */
function holderAttributes(holder: PluginHolder): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  const contentTypes: unknown = holder.server.contentTypes;
  if (!isRecord(contentTypes)) return found;
  for (const [key, contentType] of Object.entries(contentTypes)) {
    const schema: unknown = isRecord(contentType) ? contentType.schema : undefined;
    if (!isRecord(schema) || !isRecord(schema.attributes)) continue;
    const info = isRecord(schema.info) ? schema.info : {};
    const name = typeof info.singularName === 'string' ? info.singularName : key;
    found.set(`plugin::${holder.name}.${name}`, schema.attributes);
  }
  return found;
}

/** each attribute as text, to compare what the code left with what was there */
function snapshot(attributes: Record<string, unknown>): Map<string, string> {
  return new Map(Object.entries(attributes).map(([name, attribute]) => [name, JSON.stringify(attribute)]));
}

export interface SchemaEdits {
  /** `strapi.contentType(uid)`, `strapi.components[uid]` and the like: the mutable copy while edits are open, else the registry's */
  view(schema: ContentType | Component): StrapiContentType;
  /** before the extensions run: what every content-type's attributes are */
  begin(holders: ReadonlyMap<string, PluginHolder>): void;
  /** after the extensions ran: the register hooks are given copies of what the plugin objects now say */
  open(holders: ReadonlyMap<string, PluginHolder>): void;
  /** after the register hooks: what changed, by uid (empty: nothing); the views are the registry's again */
  close(): Map<string, AttributeChanges>;
}

export function createSchemaEdits(registry: Registry): SchemaEdits {
  const before = new Map<string, Map<string, string>>();
  const open = new Map<string, StrapiContentType>();
  return {
    view(schema) {
      return open.get(schema.uid) ?? describeSchema(schema);
    },
    begin(holders) {
      const fromPlugins = new Map([...holders.values()].flatMap((holder) => [...holderAttributes(holder)]));
      for (const schema of registry.all())
        before.set(schema.uid, snapshot(fromPlugins.get(schema.uid) ?? schema.attributes));
    },
    open(holders) {
      const fromPlugins = new Map([...holders.values()].flatMap((holder) => [...holderAttributes(holder)]));
      for (const schema of registry.all()) {
        const described = describeSchema(schema);
        const attributes = fromPlugins.get(schema.uid) ?? schema.attributes;
        // a type an extension added has its attributes from it: the register hooks' changes count from here
        if (!before.has(schema.uid)) before.set(schema.uid, snapshot(attributes));
        open.set(schema.uid, {
          ...structuredClone(described),
          attributes: structuredClone(attributes) as StrapiContentType['attributes'],
        });
      }
    },
    close() {
      const changes = new Map<string, AttributeChanges>();
      for (const [uid, described] of open) {
        const was = before.get(uid);
        const attributes: unknown = described.attributes;
        if (!was || !isRecord(attributes)) continue;
        const set: Record<string, SchemaAttribute> = {};
        for (const [name, attribute] of Object.entries(attributes))
          if (was.get(name) !== JSON.stringify(attribute)) set[name] = attribute as SchemaAttribute;
        const removed = [...was.keys()].filter((name) => !(name in attributes));
        if (Object.keys(set).length > 0 || removed.length > 0) changes.set(uid, { set, removed });
      }
      open.clear();
      before.clear();
      return changes;
    },
  };
}

/** The app's code that may have changed `uid`'s attributes, for messages: its plugin's extension, the register hooks. */
export function schemaChangers(
  uid: string,
  extensions: readonly PluginExtension[],
  lifecycleFile: string | undefined,
  appDir: string,
): string {
  const plugin = /^plugin::([\w-]+)\./.exec(uid)?.[1];
  const extension = extensions.find((candidate) => candidate.plugin === plugin);
  const names = [
    ...(extension ? [extension.label] : []),
    lifecycleFile ? `register() of ${relative(appDir, lifecycleFile)}` : 'the register hooks',
  ];
  return names.join(' or ');
}
