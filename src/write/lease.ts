// One writer at a time, across every service instance on the database, for the few changes that
// are several writes which must not interleave with another of their kind: a role's permissions
// replaced (two replacements interleaved leave the union of both sets), a file's bytes replaced or
// deleted (the record must describe the bytes stored), the attributes the localizations of one
// document share (two updates from two locales interleaved leave each locale the other's values).
//
// A lease is a document of `content_service_leases` (`_id`: what it guards), written outside any
// transaction, so every instance sees it at once. Taken inside an app's `strapi.db.transaction`, it
// is held until that transaction ends, committed or rolled back: its writes stay invisible until
// then, and another writer that took the lease meanwhile would compute its change from the values
// before them. (Written in the transaction, the lease would be invisible as well: others would meet
// the transaction's lock on it instead, a write outside transactions waiting unbounded, another
// transaction failing at once with a WriteConflict.)
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import {
  ambientTransaction,
  outsideAmbientTransaction,
  type AmbientTransaction,
} from '../database/ambient-transaction.js';
import { ConflictError } from '../errors/index.js';
import type { Models } from '../models/index.js';

/** the leases (`_id`: what they guard) */
const LEASES = 'content_service_leases';

interface LeaseDoc {
  _id: string;
  owner: string;
  until: number;
}

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

/** Runs `work` as the holder of `key` (re-entrant within it). */
async function asHolder<T>(key: string, work: () => Promise<T>): Promise<T> {
  const holder: Holding = { key, parent: held.getStore(), released: false };
  try {
    return await held.run(holder, work);
  } finally {
    holder.released = true;
  }
}

/** Runs `work` as the holder of `key`, once the lease is taken, unless what it guards is `gone()`. */
async function holdingUnlessGone<T>(
  key: string,
  work: () => Promise<T>,
  gone: () => Promise<Error | null>,
): Promise<T> {
  const error = await gone();
  if (error) throw error;
  return asHolder(key, work);
}

/**
 * A lease an app's open transaction holds (or is taking) until it ends: `acquired` once taken
 * (rejected if it could not be), `turn` the end of the last work that runs under it, so the
 * transaction's works take their turns, one at a time, as any holders.
 */
interface TransactionLease {
  acquired: Promise<void>;
  turn: Promise<unknown>;
}

const transactionLeases = new WeakMap<AmbientTransaction, Map<string, TransactionLease>>();

function leasesOf(transaction: AmbientTransaction): Map<string, TransactionLease> {
  let leases = transactionLeases.get(transaction);
  if (!leases) transactionLeases.set(transaction, (leases = new Map()));
  return leases;
}

/** Whether `transaction` is open on the database (not one run without transactions). */
function openWithSession(transaction: AmbientTransaction): boolean {
  return transaction.open && transaction.session !== undefined;
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

/** Takes the lease `name` for `owner`, free or held past its time; answers false while another holds it. */
async function take(leases: Collection<LeaseDoc>, name: string, owner: string, now: number): Promise<boolean> {
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
}

/**
 * Renews the taken lease every third of its hold time until `release()` gives it back (a failed
 * renewal is tried again at the next beat; only a stall past `holdMs` loses the lease).
 */
function keep(leases: Collection<LeaseDoc>, name: string, owner: string): () => Promise<void> {
  const beat = setInterval(
    () =>
      void leases
        .updateOne({ _id: name, owner }, { $set: { until: Date.now() + leaseTiming.holdMs } })
        .catch(() => undefined),
    leaseTiming.holdMs / 3,
  );
  beat.unref();
  return async () => {
    clearInterval(beat);
    await leases.deleteOne({ _id: name, owner });
  };
}

/** Takes the lease `name` (waiting for it); answers the function that gives it back. */
async function takeLease(
  models: Models,
  name: string,
  gone: () => Promise<Error | null>,
): Promise<() => Promise<void>> {
  const leases = models.db().collection<LeaseDoc>(LEASES);
  const owner = randomUUID();
  await acquire((now) => outsideAmbientTransaction(() => take(leases, name, owner, now)), gone);
  // its beat outside any transaction too: a transaction's lease outlives the work that took it
  const release = await outsideAmbientTransaction(async () => keep(leases, name, owner));
  return () => outsideAmbientTransaction(release);
}

/**
 * `work` under the lease `name` held by the app's open `transaction` until it ends: taken by the
 * first work that asks for it, the others wait for their turn.
 */
function inTransactionTurn<T>(
  models: Models,
  transaction: AmbientTransaction,
  name: string,
  work: () => Promise<T>,
  gone: () => Promise<Error | null>,
): Promise<T> {
  const leases = leasesOf(transaction);
  const held = leases.get(name);
  if (held) {
    const turn = held.turn.then(() => held.acquired).then(() => holdingUnlessGone(name, work, gone));
    held.turn = turn.catch(() => undefined);
    return turn;
  }
  /** set when the transaction ended while the lease was awaited: given back after this work */
  let giveBackNow: (() => Promise<void>) | undefined;
  const acquired = takeLease(models, name, gone).then((giveBack) => {
    // no part of the transaction's outcome: a lease not given back frees itself in `holdMs`
    if (openWithSession(transaction)) transaction.whenEnded.push(() => giveBack().catch(() => undefined));
    else giveBackNow = giveBack;
  });
  const entry: TransactionLease = { acquired, turn: acquired };
  leases.set(name, entry);
  // not taken (a 409, gone): the next work of the transaction tries again
  acquired.catch(() => leases.get(name) === entry && leases.delete(name));
  const turn = acquired
    .then(() => holdingUnlessGone(name, work, gone))
    .finally(async () => {
      await giveBackNow?.();
    });
  entry.turn = turn.catch(() => undefined);
  return turn;
}

/**
 * Runs `work` while holding the lease named `name`. `gone()` (an error) ends the wait, and refuses
 * the lease once taken, when what it guards no longer exists. Inside an app's open transaction the
 * lease is held until that transaction ends.
 */
export async function withNamedLease<T>(
  models: Models,
  name: string,
  work: () => Promise<T>,
  gone: () => Promise<Error | null> = async () => null,
): Promise<T> {
  if (holding(name)) return work();
  const transaction = ambientTransaction();
  if (transaction && openWithSession(transaction)) return inTransactionTurn(models, transaction, name, work, gone);
  const giveBack = await takeLease(models, name, gone);
  try {
    return await holdingUnlessGone(name, work, gone);
  } finally {
    await giveBack();
  }
}

/**
 * Runs `work` while holding the lease of entry `id` of `uid`. Throws `gone()` when the entry does
 * not exist (or was deleted meanwhile), a 409 when the lease is not freed within the wait. `work`
 * should read the entry again: what was read before the lease may be stale.
 */
export function withLease<T>(
  models: Models,
  uid: string,
  id: number,
  gone: () => Error,
  work: () => Promise<T>,
): Promise<T> {
  const collection = models.collection(uid);
  return withNamedLease(models, `${uid}:${id}`, work, async () =>
    (await collection.countDocuments({ _id: id as never }, { limit: 1 })) === 0 ? gone() : null,
  );
}
