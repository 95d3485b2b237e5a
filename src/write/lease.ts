// One writer at a time, across every service instance on the database, for the few changes that
// are several writes which must not interleave with another of their kind: a role's permissions
// replaced (two replacements interleaved leave the union of both sets), a file's bytes replaced or
// deleted (the record must describe the bytes stored), the attributes the localizations of one
// document share (two updates from two locales interleaved leave each locale the other's values).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors/index.js';
import type { Models } from '../models/index.js';

/** A document's own lease field: `{ owner, until }` while a writer holds it. */
const LEASE = '__lease';
/** the leases not tied to one document (`_id`: what they guard) */
const LEASES = 'content_service_leases';
/**
 * `holdMs`: how long a lease holds past its last renewal, so a writer that dies before giving it
 * back (a crash, a kill -9) frees it then; a living holder renews it every third of that, however
 * long its work takes (a provider storing a large file, an app's lifecycle hook calling out).
 * `waitMs`: how long a writer waits for a lease before answering 409. Tests shorten both.
 */
export const leaseTiming = { holdMs: 10_000, waitMs: 15_000 };

/**
 * The leases the running work holds: a lease is re-entrant within the work that took it (an app's
 * lifecycle hook run inside a localization's creation may update that document's localizations).
 * Each holding is marked released when its work ends, so what that work started and outlives it
 * (a queue it set going) holds nothing.
 */
interface Holding {
  key: string;
  parent: Holding | undefined;
  released: boolean;
}

const held = new AsyncLocalStorage<Holding>();

function holding(key: string): boolean {
  for (let h = held.getStore(); h; h = h.parent) if (h.key === key && !h.released) return true;
  return false;
}

/** Runs `work` as the holder of `key`, renewing the lease (`renew(until)`) while it runs. */
async function asHolder<T>(
  key: string,
  renew: (until: number) => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  const holder: Holding = { key, parent: held.getStore(), released: false };
  // a failed renewal is tried again at the next beat; only a stall past `holdMs` loses the lease
  const beat = setInterval(
    () => void renew(Date.now() + leaseTiming.holdMs).catch(() => undefined),
    leaseTiming.holdMs / 3,
  );
  beat.unref();
  try {
    return await held.run(holder, work);
  } finally {
    clearInterval(beat);
    holder.released = true;
  }
}

/** Tries `take` (true: taken) until it succeeds; `gone()` (an error) ends the wait. */
async function acquire(take: (until: number) => Promise<boolean>, gone: () => Promise<Error | null>): Promise<void> {
  const started = Date.now();
  for (let round = 0; ; round++) {
    const now = Date.now();
    if (await take(now)) return;
    const error = await gone();
    if (error) throw error;
    if (now - started > leaseTiming.waitMs) throw new ConflictError();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** round)));
  }
}

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
  const key = `${uid}:${id}`;
  if (holding(key)) return work();
  const collection = models.collection(uid);
  const owner = randomUUID();
  await acquire(
    async (now) =>
      (
        await collection.updateOne(
          { _id: id as never, $or: [{ [LEASE]: { $exists: false } }, { [`${LEASE}.until`]: { $lt: now } }] },
          { $set: { [LEASE]: { owner, until: now + leaseTiming.holdMs } } },
        )
      ).matchedCount === 1,
    async () => ((await collection.countDocuments({ _id: id as never }, { limit: 1 })) === 0 ? gone() : null),
  );
  const renew = (until: number) =>
    collection.updateOne({ _id: id as never, [`${LEASE}.owner`]: owner }, { $set: { [`${LEASE}.until`]: until } });
  try {
    return await asHolder(key, renew, work);
  } finally {
    await collection.updateOne({ _id: id as never, [`${LEASE}.owner`]: owner }, { $unset: { [LEASE]: '' } });
  }
}

/** Runs `work` while holding the lease named `name` (a document of the `content_service_leases` collection while held). */
export async function withNamedLease<T>(models: Models, name: string, work: () => Promise<T>): Promise<T> {
  if (holding(name)) return work();
  const leases = models.db().collection<{ _id: string; owner: string; until: number }>(LEASES);
  const owner = randomUUID();
  await acquire(
    async (now) => {
      try {
        // free, or held past its time: taken; held: the upsert meets the holder's `_id`
        await leases.updateOne(
          { _id: name, until: { $lt: now } },
          { $set: { owner, until: now + leaseTiming.holdMs } },
          { upsert: true },
        );
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code === 11000) return false;
        throw error;
      }
    },
    async () => null,
  );
  const renew = (until: number) => leases.updateOne({ _id: name, owner }, { $set: { until } });
  try {
    return await asHolder(name, renew, work);
  } finally {
    await leases.deleteOne({ _id: name, owner });
  }
}
