export { Models } from './models.js';
export { IdCounters, componentCounterKey } from './counters.js';
export type { ContentModel } from './mongoose-schema.js';
export { REVISION, CLAIMS, LINK_ORDER, STORAGE_FIELDS, claimPath, inverseOrder, orderPath } from './storage-fields.js';
