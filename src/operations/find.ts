import { AppError } from '../errors/index.js';
import type { CollectionResponse, OperationContext, RawQuery } from './context.js';

/** GET /api/<plural>: a page of entries. */
export async function find(_ctx: OperationContext, _uid: string, _query: RawQuery): Promise<CollectionResponse> {
  throw new AppError(501, 'NotImplementedError', 'find is not implemented yet');
}
