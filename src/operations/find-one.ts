import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<plural>/:id — `id` as it came in the path; a non-integer id is a 404. */
export async function findOne(_ctx: OperationContext, _uid: string, _id: string, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'findOne is not implemented yet');
}
