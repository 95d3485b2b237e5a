/**
 * `strapi.db.transaction(cb)` of Strapi 4.15+: the service's reads and writes made while `cb` runs
 * (entity service, `strapi.db.query`, core services) are in one transaction, committed when `cb`
 * returns (its result is the answer) and rolled back when it throws (the error is thrown again).
 * A call inside another joins the outer transaction (its `commit`/`rollback` do nothing, its
 * `onCommit`/`onRollback` callbacks wait for the outer end). `commit()` and `rollback()` end it
 * early; what `cb` does afterwards runs outside any transaction, as in Strapi. Once `cb` settled,
 * what it left running (a `Promise.all` whose other branch threw) is refused, where Strapi would
 * run it outside the transaction: docs/strapi-deviations.md.
 *
 * Where the database has no transactions (a standalone mongod, `ENGINE_TRANSACTIONS=off`) `cb`
 * runs without one, its writes landing one by one, with a warning logged once.
 */
import type { ClientSession } from 'mongodb';
import type { Logger } from '../logger.js';
import {
  ambientTransaction,
  closeAmbientTransaction,
  endAmbientTransaction,
  openAmbientTransaction,
  runInAmbientTransaction,
  type AmbientTransaction,
  type CallbackFailure,
} from '../database/ambient-transaction.js';
import type { Models } from '../models/index.js';
import { UnsupportedStrapiApi, strictObject } from './unsupported.js';

export interface TransactionControls {
  /** Strapi's knex transaction; here the transaction is ambient, so this offers nothing */
  trx: object;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  onCommit(callback: () => unknown): void;
  onRollback(callback: () => unknown): void;
}

export type DbTransaction = <T>(cb: (controls: TransactionControls) => T | Promise<T>) => Promise<T>;

const NO_TRANSACTIONS_WARNING =
  'strapi.db.transaction: the database has no transactions (a standalone mongod, or ENGINE_TRANSACTIONS=off), ' +
  'so the callback runs without one: its writes are not undone when it fails';

export function createDbTransaction(models: Models, logger: Logger): DbTransaction {
  let warned = false;
  return async <T>(cb: (controls: TransactionControls) => T | Promise<T>): Promise<T> => {
    if (typeof cb !== 'function')
      throw new UnsupportedStrapiApi(
        'strapi.db.transaction() without a callback',
        'pass the work as strapi.db.transaction(async ({ commit, rollback, onCommit, onRollback }) => ...)',
      );
    const outer = ambientTransaction();
    if (outer?.open)
      return cb(
        controlsOf(
          outer,
          async () => {},
          async () => {},
        ),
      );
    if (!models.transactions && !warned) {
      warned = true;
      logger.warn(NO_TRANSACTIONS_WARNING);
    }
    const transaction = openAmbientTransaction(models.transactions ? await begin(models) : undefined);
    // as Strapi: a failure is logged rather than turning the ended transaction into an error
    const callbackFailed: CallbackFailure = (error, ended) =>
      logger.error(
        { err: error },
        `strapi.db.transaction: an ${ended === 'commit' ? 'onCommit' : 'onRollback'} callback failed`,
      );
    const commit = () => endAmbientTransaction(transaction, 'commit', callbackFailed);
    const rollback = () => endAmbientTransaction(transaction, 'rollback', callbackFailed);
    // once cb settled, what it left running is refused (closed), not committed on its own
    return runInAmbientTransaction(transaction, async () => {
      let result: T;
      try {
        result = await cb(controlsOf(transaction, commit, rollback));
      } catch (error) {
        await closeAmbientTransaction(transaction, 'rollback', callbackFailed);
        throw error;
      }
      await closeAmbientTransaction(transaction, 'commit', callbackFailed);
      return result;
    });
  };
}

/**
 * A session whose transaction has started on the server: `cb` may send commands at once
 * (`Promise.all`), and the driver marks every command as the first of the transaction
 * (`startTransaction`) until one was sent, which the server refuses for all but one. So one
 * read that finds nothing goes first.
 */
async function begin(models: Models): Promise<ClientSession> {
  const session = models.connection.getClient().startSession();
  try {
    session.startTransaction();
    await models.db().collection<{ _id: string }>('counters').findOne({ _id: '' }, { session });
    return session;
  } catch (error) {
    await session.endSession();
    throw error;
  }
}

function controlsOf(
  transaction: AmbientTransaction,
  commit: () => Promise<void>,
  rollback: () => Promise<void>,
): TransactionControls {
  return {
    trx: strictObject({}, 'trx', 'nothing: the calls made inside the callback join the transaction without it'),
    commit,
    rollback,
    onCommit: (callback) => void transaction.commitCallbacks.push(callback),
    onRollback: (callback) => void transaction.rollbackCallbacks.push(callback),
  };
}
