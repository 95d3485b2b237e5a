import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<singular>: the single type's entry, 404 when it does not exist yet. */
export async function findSingle(_ctx: OperationContext, _uid: string, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'findSingle is not implemented yet');
}

// PUT and DELETE /api/<singular>: the write path (single-write.ts).
export { upsertSingle, deleteSingle } from './single-write.js';
