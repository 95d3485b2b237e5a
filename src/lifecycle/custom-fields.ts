/**
 * `strapi.customFields.register(field | fields)` of Strapi v4: what a plugin's register phase
 * declares about its custom fields, checked as Strapi checks it (same messages). Strapi gives each
 * `"type": "customField"` attribute its registered base type after the register hooks; here the
 * content-types are built before any code runs (from the known plugins and config/custom-fields),
 * so a registration that disagrees with what an attribute was built with is told, with the
 * mapping that makes them agree at the next start.
 */
import { isCustomFieldBaseType, type CustomFieldBaseType, type Registry } from '../content-types/index.js';
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
 * After the register hooks: each attribute of a registered custom field whose content-type was
 * built with another base type (an unknown field is kept as JSON) gets one warning with the
 * config/custom-fields entry that gives it the registered type.
 */
export function checkRegisteredCustomFields(
  registry: Registry,
  registered: ReadonlyMap<string, CustomFieldBaseType>,
  logger: Logger,
): void {
  for (const schema of registry.all())
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      const uid = attribute.customField;
      const type = uid === undefined ? undefined : registered.get(uid);
      if (type === undefined || type === attribute.type) continue;
      logger.warn(
        `${schema.uid} (attribute "${name}"): custom field "${uid}" is registered as ${type} by the app's code, after ` +
          `the content-types were built with ${attribute.type}; to store it as ${type}, map it in config/custom-fields: ` +
          `{ "${uid}": "${type}" }`,
      );
    }
}
