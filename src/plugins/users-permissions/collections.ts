import type { Collection, Document } from 'mongodb';
import type { ServiceContext } from '../../service-context.js';

/** The native driver collection of a content-type, typed with integer `_id`s (docs/ARCHITECTURE.md). */
export function collectionOf<T extends Document & { _id: number } = Document & { _id: number }>(
  ctx: ServiceContext,
  uid: string,
): Collection<T> {
  return ctx.models.collection(uid) as unknown as Collection<T>;
}
