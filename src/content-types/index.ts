export * from './types.js';
export * from './uids.js';
export { Registry, type RegistryOptions } from './registry.js';
export { buildAppRegistry, type AppRegistry } from './app-registry.js';
export type { AttributeChanges } from './attribute-changes.js';
export { customFieldTypes } from './custom-field-config.js';
export {
  CUSTOM_FIELD_BASE_TYPES,
  isCustomFieldBaseType,
  type CustomFieldBaseType,
  type CustomFieldTypes,
} from './custom-fields.js';
export { applyExtensions, type ExtensionSource } from './extensions.js';
export type { SchemaNotice } from './notices.js';
export { isManagedField, isMorph, isMorphTo, isPrivate, isScalar, isTargetRelation } from './attributes.js';
export { SchemaError } from './schema-error.js';
export { loadSchemas, type LoadedSchemas } from './load.js';
export { HIDDEN_FROM_ADMIN, pluginCollectionType, type ContentTypeSource, type ComponentSource } from './normalize.js';
export { entryIdFromPath } from './entry-id.js';
