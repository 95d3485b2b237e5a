// Where the database has transactions (a replica set, a mongos or the embedded engine; see
// Models.transactions), the writes of one request that belong together run in one; elsewhere each
// command stands alone and the write path's order (docs/ARCHITECTURE.md, write path) keeps the
// invariants instead. Inside an app's `strapi.db.transaction(cb)` the writes join that transaction
// (src/database/ambient-transaction.ts): they commit or roll back with the rest of `cb`.
import type { ClientSession } from 'mongodb';
import {
  ambientSession,
  ambientTransaction,
  outsideAmbientTransaction,
  runInAmbientTransaction,
  type AmbientTransaction,
} from '../database/ambient-transaction.js';
import type { Models } from '../models/index.js';

/** What every command of a write is sent with: the transaction's session, when there is one. */
export interface WriteScope {
  session?: ClientSession;
}

export const NO_TRANSACTION: WriteScope = {};

/**
 * Runs `work` in a transaction when the database has them (retried by the driver on transient
 * errors), or in the app's open one (not retried: `cb` is the app's).
 */
export async function inTransaction<T>(models: Models, work: (scope: WriteScope) => Promise<T>): Promise<T> {
  const ambient = ambientSession();
  if (ambient) return work({ session: ambient });
  if (!models.transactions) return work(NO_TRANSACTION);
  const session = models.connection.getClient().startSession();
  try {
    return await session.withTransaction(() => work({ session }));
  } finally {
    await session.endSession();
  }
}

/**
 * Runs what settles a write once it is committed (claims, reference checks, a delete's second
 * sweep: each idempotent). Inside an app's open transaction the write is not committed yet and
 * these reads cannot see what concurrent requests commit meanwhile, nor can those requests see the
 * write: so `step` runs now (the answer reflects it) and once more after that transaction commits.
 */
export async function settleAgainAfterCommit(step: () => Promise<void>): Promise<void> {
  await step();
  const ambient = ambientTransaction();
  if (ambient?.open) ambient.afterCommit.push(step);
}

/**
 * Runs `work` as one transaction where the database has them: every command it sends joins it, as
 * in an app's `strapi.db.transaction` (so work that goes through the app's hooks and services commits
 * or fails whole), and the write path's settling steps run again after the commit. `work` is told
 * whether it runs in a transaction (without one its commands stand alone, and it orders them for a
 * crash between them). `afterCommit` runs once the work is committed: at once here, or after the
 * app's commit when the work joined an app's open transaction (not at all if that one rolls back).
 */
export async function asOneTransaction<T>(
  models: Models,
  work: (transactional: boolean) => Promise<T>,
  afterCommit: () => Promise<void>,
): Promise<T> {
  const outer = ambientTransaction();
  if (outer?.open) {
    const result = await work(outer.session !== undefined);
    outer.afterCommit.push(afterCommit);
    return result;
  }
  if (!models.transactions) {
    const result = await work(false);
    await afterCommit();
    return result;
  }
  const session = models.connection.getClient().startSession();
  const transaction: AmbientTransaction = {
    open: true,
    session,
    commitCallbacks: [],
    rollbackCallbacks: [],
    afterCommit: [],
  };
  let result: T;
  try {
    session.startTransaction();
    result = await runInAmbientTransaction(transaction, () => work(true));
    await session.commitTransaction();
  } catch (error) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    runCallbacks(transaction.rollbackCallbacks);
    throw error;
  } finally {
    transaction.open = false;
    transaction.session = undefined;
    await session.endSession();
  }
  // the caller's step first (it learns of the commit whatever the others do), then the write path's
  // settling steps, each run whatever the one before did; the first failure is thrown once all ran
  let failure: unknown;
  for (const step of [afterCommit, ...transaction.afterCommit])
    await outsideAmbientTransaction(step).catch((error: unknown) => {
      failure ??= error;
    });
  runCallbacks(transaction.commitCallbacks);
  if (failure !== undefined) throw failure;
  return result;
}

/** The `onCommit`/`onRollback` callbacks app code registered inside: not awaited, as Strapi's. */
function runCallbacks(callbacks: (() => unknown)[]): void {
  for (const callback of callbacks)
    void Promise.resolve()
      .then(callback)
      .catch(() => undefined);
}
