// One writer at a time on a document, across every service instance on the database, for the few
// changes that are several writes which must not interleave with another of their kind: a role's
// permissions replaced (two replacements interleaved leave the union of both sets), a file's bytes
// replaced or deleted (the record must describe the bytes stored).
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors/index.js';
import type { Models } from '../models/index.js';

/** A field of the document itself: `{ owner, until }` while a writer holds it. */
const LEASE = '__lease';
/** how long a lease holds when its writer dies before giving it back (a crash, a kill -9) */
const LEASE_MS = 10_000;
/** how long a writer waits for the lease before answering 409 */
const WAIT_MS = 15_000;

/**
 * Runs `work` while holding the lease of entry `id` of `uid`. Throws `gone()` when the entry does
 * not exist (or was deleted meanwhile, its lease with it), a 409 when the lease is not freed within
 * the wait. `work` should read the entry again: what was read before the lease may be stale.
 */
export async function withLease<T>(
  models: Models,
  uid: string,
  id: number,
  gone: () => Error,
  work: () => Promise<T>,
): Promise<T> {
  const collection = models.collection(uid);
  const owner = randomUUID();
  const started = Date.now();
  for (let round = 0; ; round++) {
    const now = Date.now();
    const taken = await collection.updateOne(
      { _id: id as never, $or: [{ [LEASE]: { $exists: false } }, { [`${LEASE}.until`]: { $lt: now } }] },
      { $set: { [LEASE]: { owner, until: now + LEASE_MS } } },
    );
    if (taken.matchedCount === 1) break;
    if ((await collection.countDocuments({ _id: id as never }, { limit: 1 })) === 0) throw gone();
    if (now - started > WAIT_MS) throw new ConflictError();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** round)));
  }
  try {
    return await work();
  } finally {
    await collection.updateOne({ _id: id as never, [`${LEASE}.owner`]: owner }, { $unset: { [LEASE]: '' } });
  }
}
