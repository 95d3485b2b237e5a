// The read path of the REST query language: qs query → typed read tree → one aggregation → Strapi shapes.
export { readEntries, readEntry, type ReadEntriesOptions, type ReadEntriesResult } from './read-entries.js';
export { formatScalar, type FormatStyle } from './format.js';
export type { ReadTree, EntrySelection, PopulateMap, Pagination, PublicationState } from './read-tree.js';
export { UNRESTRICTED, type QueryAccess } from './access.js';
