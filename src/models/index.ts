export { Models } from './models.js';
export { IdCounters, componentCounterKey } from './counters.js';
export type { ContentModel } from './mongoose-schema.js';
