// Compare-and-set on an entry's revision (`__rev`): an update that computed its new values from
// what it read (relation lists with positions, components kept by id) is written only if nobody
// wrote the entry in between; otherwise it is read again and recomputed.
import { ConflictError } from '../errors/index.js';
import { REVISION } from '../models/index.js';
import type { StoredEntry } from './collection.js';

/** The entry changed since it was read: the write is recomputed from a fresh read. */
export class StaleEntry extends Error {
  constructor() {
    super('the entry changed since it was read');
  }
}

/** The filter that matches the entry only at the revision it was read at (a legacy entry has none). */
export function atRevision(entry: StoredEntry): Record<string, unknown> {
  const revision = entry[REVISION];
  return { _id: entry._id, [REVISION]: typeof revision === 'number' ? revision : null };
}

/** Every write of a document increments its revision. */
export const NEXT_REVISION = { $inc: { [REVISION]: 1 } };

const MAX_ATTEMPTS = 100;

/** Runs `attempt` until it does not meet a StaleEntry; each retry waits a little longer, at random (no lock step). */
export async function retryWhileStale<T>(attempt: (round: number) => Promise<T>): Promise<T> {
  for (let round = 0; round < MAX_ATTEMPTS; round++) {
    try {
      return await attempt(round);
    } catch (error) {
      if (!(error instanceof StaleEntry)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20, 2 ** round)));
    }
  }
  throw new ConflictError();
}
