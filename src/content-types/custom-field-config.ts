import type { ServiceConfig } from '../config/index.js';
import { CUSTOM_FIELD_BASE_TYPES, isCustomFieldBaseType, type CustomFieldTypes } from './custom-fields.js';
import { SchemaError } from './schema-error.js';

/**
 * The app's custom field mapping, `config/custom-fields.(json|js|ts)` (with its environment
 * overrides, as every config file): `{ "<custom field uid>": "<base type>" }`, for custom fields
 * whose plugin this service does not know (Strapi reads the base type from the plugin's server
 * code, which does not run here). Strapi itself ignores the file.
 */
export function customFieldTypes(config: Pick<ServiceConfig, 'tree'>): CustomFieldTypes {
  const raw = config.tree['custom-fields'];
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new SchemaError('config/custom-fields', 'must export an object { "<custom field uid>": "<base type>" }');
  const types: Record<string, (typeof CUSTOM_FIELD_BASE_TYPES)[number]> = {};
  for (const [uid, type] of Object.entries(raw)) {
    if (!isCustomFieldBaseType(type)) {
      throw new SchemaError(
        'config/custom-fields',
        `"${uid}" maps to ${JSON.stringify(type)}; a custom field's base type is one of ${CUSTOM_FIELD_BASE_TYPES.join(', ')}`,
      );
    }
    types[uid] = type;
  }
  return types;
}
