import { readConfigFile } from '../config/index.js';
import { CUSTOM_FIELD_BASE_TYPES, isCustomFieldBaseType, type CustomFieldTypes } from './custom-fields.js';
import { SchemaError } from './schema-error.js';

/**
 * The app's custom field mapping, `config/custom-fields.(json|js|ts)`: `{ "<custom field uid>":
 * "<base type>" }`, for custom fields whose plugin this service does not know (Strapi reads the
 * base type from the plugin's server code, which does not run here). Strapi itself ignores the file.
 */
export async function readCustomFieldTypes(appDir: string): Promise<CustomFieldTypes> {
  const file = await readConfigFile(appDir, 'custom-fields');
  if (!file) return {};
  const types: Record<string, (typeof CUSTOM_FIELD_BASE_TYPES)[number]> = {};
  for (const [uid, type] of Object.entries(file.value)) {
    if (!isCustomFieldBaseType(type)) {
      throw new SchemaError(
        file.file,
        `"${uid}" maps to ${JSON.stringify(type)}; a custom field's base type is one of ${CUSTOM_FIELD_BASE_TYPES.join(', ')}`,
      );
    }
    types[uid] = type;
  }
  return types;
}
