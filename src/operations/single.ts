import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<singular>: the single type's entry, 404 when it does not exist yet. */
export async function findSingle(_ctx: OperationContext, _uid: string, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'findSingle is not implemented yet');
}

/** PUT /api/<singular>: creates the entry or updates it. */
export async function upsertSingle(_ctx: OperationContext, _uid: string, _body: unknown, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'upsertSingle is not implemented yet');
}

/** DELETE /api/<singular>. */
export async function deleteSingle(_ctx: OperationContext, _uid: string, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'deleteSingle is not implemented yet');
}
