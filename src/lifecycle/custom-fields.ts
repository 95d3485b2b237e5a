/**
 * `strapi.customFields.register(field | fields)` of Strapi v4: what a plugin's register phase
 * declares about its custom fields, checked as Strapi checks it (same messages). Strapi gives each
 * `"type": "customField"` attribute its registered base type after the register hooks; here the
 * content-types are built before any code runs (from config/custom-fields and the known plugins,
 * JSON for a field neither knows), and a field only the app's code knows takes its registered
 * type after the register hooks (settleCustomFields).
 */
import {
  isCustomFieldBaseType,
  type Attribute,
  type CustomFieldBaseType,
  type Registry,
  type SchemaNotice,
} from '../content-types/index.js';
import type { Logger } from '../logger.js';
import { isPlainObject } from '../write/payload.js';

export interface StrapiCustomFields {
  register(customField: unknown): void;
}

export interface CustomFieldsRegistry {
  api: StrapiCustomFields;
  /** base type by uid (`plugin::<plugin>.<name>`, or `global::<name>` without a known plugin) */
  registered(): ReadonlyMap<string, CustomFieldBaseType>;
}

const OBJECT_KEY = /^(?![0-9])[a-zA-Z0-9$_-]+$/;
const INPUT_SIZES = [4, 6, 8, 12];

function checked(field: unknown): { name: string; plugin?: string; type: CustomFieldBaseType } {
  if (!isPlainObject(field) || !('name' in field) || !('type' in field))
    throw new Error(`Custom fields require a 'name' and 'type' key`);
  const { name, plugin, type, inputSize } = field;
  if (!isCustomFieldBaseType(type))
    throw new Error(
      `Custom field type: '${String(type)}' is not a valid Strapi type or it can't be used with a Custom Field`,
    );
  if (typeof name !== 'string' || !OBJECT_KEY.test(name))
    throw new Error(`Custom field name: '${String(name)}' is not a valid object key`);
  if (inputSize) {
    if (!isPlainObject(inputSize) || !('default' in inputSize) || !('isResizable' in inputSize))
      throw new Error(`inputSize should be an object with 'default' and 'isResizable' keys`);
    if (!INPUT_SIZES.includes(inputSize.default as number))
      throw new Error('Custom fields require a valid default input size');
    if (typeof inputSize.isResizable !== 'boolean')
      throw new Error('Custom fields should specify if their input is resizable');
  }
  return { name, plugin: typeof plugin === 'string' ? plugin : undefined, type };
}

/** `hasPlugin`: whether `strapi.plugin(name)` is a plugin of the app (the uid is then the plugin's). */
export function createCustomFieldsRegistry(hasPlugin: (name: string) => boolean): CustomFieldsRegistry {
  const registered = new Map<string, CustomFieldBaseType>();
  return {
    api: {
      register(customField) {
        for (const field of Array.isArray(customField) ? customField : [customField]) {
          const { name, plugin, type } = checked(field);
          const uid = plugin && hasPlugin(plugin) ? `plugin::${plugin}.${name}` : `global::${name}`;
          if (registered.has(uid)) throw new Error(`Custom field: '${uid}' has already been registered`);
          registered.set(uid, type);
        }
      },
    },
    registered: () => registered,
  };
}

/**
 * After the register hooks, where Strapi gives each custom field its registered base type. An
 * attribute built as JSON because no mapping knew its field takes the type the app's code
 * registered (its held notice is dropped); a field still unknown gets its held notice now; an
 * attribute built from config/custom-fields or the known plugins with another type than the one
 * registered keeps it, with one warning naming the mapping to change. Nothing has read or written
 * an entry yet, and the GraphQL schema is built after this.
 */
export function settleCustomFields(
  registry: Registry,
  registered: ReadonlyMap<string, CustomFieldBaseType>,
  held: readonly SchemaNotice[],
  logger: Logger,
): void {
  const unknown = new Set(held.map((notice) => notice.unknownCustomField));
  for (const notice of held) if (!registered.has(notice.unknownCustomField ?? '')) logger[notice.level](notice.message);
  for (const schema of registry.all())
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      const uid = attribute.customField;
      const type = uid === undefined ? undefined : registered.get(uid);
      if (uid === undefined || type === undefined || type === attribute.type) continue;
      if (!unknown.has(uid)) {
        logger.warn(
          `${schema.uid} (attribute "${name}"): custom field "${uid}" is registered as ${type} by the app's code, but ` +
            `config/custom-fields or the known plugins give it ${attribute.type}, which is kept; to store it as ${type}, ` +
            `map it in config/custom-fields: { "${uid}": "${type}" }`,
        );
        continue;
      }
      if (type === 'enumeration' && !Array.isArray((attribute as { enum?: unknown }).enum)) {
        logger.warn(
          `${schema.uid} (attribute "${name}"): custom field "${uid}" is registered as an enumeration, but the ` +
            'attribute declares no "enum" array; it is stored as JSON',
        );
        continue;
      }
      schema.attributes[name] = { ...attribute, type } as Attribute;
    }
}
