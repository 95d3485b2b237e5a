// Where the database has transactions (a replica set, a mongos or the embedded engine; see
// Models.transactions), the writes of one request that belong together run in one; elsewhere each
// command stands alone and the write path's order (docs/ARCHITECTURE.md, write path) keeps the
// invariants instead. Inside an app's `strapi.db.transaction(cb)` the writes join that transaction
// (src/database/ambient-transaction.ts): they commit or roll back with the rest of `cb`.
import type { ClientSession } from 'mongodb';
import { ambientSession, ambientTransaction } from '../database/ambient-transaction.js';
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
