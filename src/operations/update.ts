import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** PUT /api/<plural>/:id with `{ data }`. */
export async function update(_ctx: OperationContext, _uid: string, _id: string, _body: unknown, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'update is not implemented yet');
}
