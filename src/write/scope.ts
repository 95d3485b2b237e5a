// Where the database has transactions (a replica set, a mongos or the embedded engine; see
// Models.transactions), the writes of one request that belong together run in one; elsewhere each
// command stands alone and the write path's order (docs/ARCHITECTURE.md, write path) keeps the
// invariants instead. Inside an app's `strapi.db.transaction(cb)` the writes join that transaction
// (src/database/ambient-transaction.ts): they commit or roll back with the rest of `cb`.
import type { ClientSession } from 'mongodb';
import {
  TransactionEnded,
  ambientTransaction,
  closeAmbientTransaction,
  openAmbientTransaction,
  runInAmbientTransaction,
  type AmbientTransaction,
} from '../database/ambient-transaction.js';
import type { Models } from '../models/index.js';

/** What every command of a write is sent with: the transaction's session, when there is one. */
export interface WriteScope {
  readonly session?: ClientSession;
}

export const NO_TRANSACTION: WriteScope = {};

/**
 * A scope whose session is handed out only while `live()`: once its attempt ended, the driver would
 * send a command on the session without a transaction (committing alone), or in the next attempt's.
 */
function attemptScope(session: ClientSession, live: () => boolean): WriteScope {
  return {
    get session() {
      if (!live()) throw new TransactionEnded();
      return session;
    },
  };
}

/** The scope of a write joining the app's open transaction: live until that one ends. */
function ambientScope(transaction: AmbientTransaction, session: ClientSession): WriteScope {
  return attemptScope(session, () => transaction.session === session);
}

/**
 * Runs `work` in a transaction when the database has them (retried by the driver on transient
 * errors), or in the app's open one (not retried: `cb` is the app's). Each attempt's scope serves
 * only until that attempt's work settled.
 */
export async function inTransaction<T>(models: Models, work: (scope: WriteScope) => Promise<T>): Promise<T> {
  const ambient = ambientTransaction();
  if (ambient?.session) return work(ambientScope(ambient, ambient.session));
  if (!models.transactions) return work(NO_TRANSACTION);
  const session = models.connection.getClient().startSession();
  let failed: { error: unknown } | undefined;
  try {
    return await session.withTransaction(async () => {
      failed = undefined;
      let live = true;
      try {
        return await work(attemptScope(session, () => live));
      } catch (error) {
        failed = { error };
        throw error;
      } finally {
        live = false;
      }
    });
  } catch (error) {
    // After a failed attempt the driver aborts, and that abort can fail in its stead: when the
    // session was ended meanwhile (the client's close ends every active session, aborting its
    // transaction), two aborts run on it and the second throws "illegal state transition".
    throw failed ? failed.error : error;
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
 * crash between them). `afterCommit` runs once the work is committed: at once here (before the
 * settling steps: it learns of the commit whatever they do), or after the app's commit when the work
 * joined an app's open transaction (not at all if that one rolls back).
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
  session.startTransaction();
  const transaction = openAmbientTransaction(session);
  return runInAmbientTransaction(transaction, async () => {
    let result: T;
    try {
      result = await work(true);
    } catch (error) {
      await closeAmbientTransaction(transaction, 'rollback', ignoreCallbackFailure);
      throw error;
    }
    transaction.afterCommit.unshift(afterCommit);
    await closeAmbientTransaction(transaction, 'commit', ignoreCallbackFailure);
    return result;
  });
}

/** The app's `onCommit`/`onRollback` callbacks registered inside are its own to report. */
const ignoreCallbackFailure = () => undefined;
