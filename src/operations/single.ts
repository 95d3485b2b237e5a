/** GET /api/<singular>: see find-single.ts (query engine owners). */
export { findSingle } from './find-single.js';

// PUT and DELETE /api/<singular>: the write path (single-write.ts).
export { upsertSingle, deleteSingle } from './single-write.js';
