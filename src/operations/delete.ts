import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** DELETE /api/<plural>/:id: answers the deleted entry. */
export async function remove(_ctx: OperationContext, _uid: string, _id: string, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'delete is not implemented yet');
}
