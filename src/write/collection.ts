import type { Collection } from 'mongodb';
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
