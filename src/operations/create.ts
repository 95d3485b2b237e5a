import { AppError } from '../errors/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';

/** POST /api/<plural> with `{ data }`; answers the created entry read back with the request's query. */
export async function create(_ctx: OperationContext, _uid: string, _body: unknown, _query: RawQuery): Promise<EntryResponse> {
  throw new AppError(501, 'NotImplementedError', 'create is not implemented yet');
}
