export * from './types.js';
export * from './uids.js';
export { Registry } from './registry.js';
export { isPrivate, isScalar } from './attributes.js';
export { SchemaError } from './schema-error.js';
export { loadSchemas, type LoadedSchemas } from './load.js';
export type { ContentTypeSource, ComponentSource } from './normalize.js';
