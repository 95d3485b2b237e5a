import type { ClientSession, Collection } from 'mongodb';
import type { Models } from '../models/index.js';

/** A stored entry: integer `_id` (docs/ARCHITECTURE.md). */
export interface StoredEntry {
  _id: number;
  [field: string]: unknown;
}

/** The native collection of a content-type, typed with integer ids. */
export function entries(models: Models, uid: string): Collection<StoredEntry> {
  return models.collection(uid) as unknown as Collection<StoredEntry>;
}

/** An update of entry documents: operators on storage paths (relation ids, claim stamps, order keys, revision). */
export interface EntryUpdate {
  $set?: Record<string, unknown>;
  $unset?: Record<string, ''>;
  $inc?: Record<string, number>;
  $pull?: Record<string, unknown>;
  $addToSet?: Record<string, unknown>;
}

export interface UpdateOptions {
  session?: ClientSession;
  arrayFilters?: Record<string, unknown>[];
  /** false: leave `updatedAt` alone (a link removed because its target was deleted) */
  timestamps?: boolean;
}

/**
 * Updates the entries of `uid` matching `filter` through the model (its casting, and `updatedAt`
 * unless told otherwise); answers how many matched.
 */
export async function updateEntries(
  models: Models,
  uid: string,
  filter: Record<string, unknown>,
  update: EntryUpdate,
  options: UpdateOptions = {},
): Promise<number> {
  const result = await models.model(uid).updateMany(filter, update, options);
  return result.matchedCount;
}
