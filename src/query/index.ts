// The read path of the REST query language: qs query → typed read tree → one aggregation → Strapi shapes.
export {
  readEntries,
  checkEntryQuery,
  readEntry,
  validateUnused,
  validateReadQuery,
  type ReadContext,
  type ReadQuery,
  type ReadEntriesOptions,
  type ReadEntriesResult,
} from './read-entries.js';
export { formatScalar, MORPH_TYPE, type FormatStyle, type EnvelopeEntry, type PlainEntry } from './format.js';
export type { ReadTree, EntrySelection, PopulateMap, Pagination, PublicationState } from './read-tree.js';
export { APP_CODE, UNRESTRICTED, type QueryAccess } from './access.js';
export { POPULATE_ATTRIBUTE, checkComponentListArgs } from './parse/populate.js';
export { listensToRead, runAfterRead, runBeforeRead } from './read-hooks.js';
export { populateForQuery, populateFromQuery } from './populate-words.js';
