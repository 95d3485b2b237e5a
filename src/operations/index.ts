// One use-case per file, shared by REST (and later GraphQL). Reads: find.ts, find-one.ts (query
// engine owners); writes: create.ts, update.ts, delete.ts, single.ts, localizations.ts.
export type { OperationContext, RawQuery, FormattedEntry, EntryResponse, CollectionResponse } from './context.js';
export { find } from './find.js';
export { findOne, findWritten } from './find-one.js';
export { create } from './create.js';
export { update } from './update.js';
export { remove } from './delete.js';
export { findSingle, upsertSingle, deleteSingle } from './single.js';
export { entityReadQuery, pageParams } from './entity-params.js';
