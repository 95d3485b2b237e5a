import { checkEntryQuery } from '../query/index.js';
import type { EntryResponse, OperationContext, RawQuery } from './context.js';
import { findWritten } from './find-one.js';

/** A write answers its entry read back with the request's query, drafts included. */
function answerQuery(query: RawQuery): RawQuery {
  return { ...query, publicationState: 'preview' };
}

/**
 * Checks the request's query (fields, populate, filters, sort) before anything is written, so a
 * bad query is a 400 that changes nothing, not a 400 after the write. Reads nothing.
 */
export async function checkAnswerQuery(ctx: OperationContext, uid: string, query: RawQuery): Promise<void> {
  checkEntryQuery(ctx, uid, answerQuery(query));
}

export function answerEntry(ctx: OperationContext, uid: string, id: number, query: RawQuery): Promise<EntryResponse> {
  return findWritten(ctx, uid, String(id), answerQuery(query));
}
