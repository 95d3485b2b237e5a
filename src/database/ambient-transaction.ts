// The transaction an app's `strapi.db.transaction(cb)` opened, held for the asynchronous work of
// `cb` (AsyncLocalStorage, as Strapi's `transactionCtx`). Every command the service sends while
// one is open joins its session: the driver asks `client.startSession({ explicit: false })` for
// each command sent without a session (its implicit session), and a client that
// `joinAmbientTransactions` answered that with the open transaction's session instead, so the
// entity service, the query engine and the core services need no session of their own; the
// write path's own transaction (`src/write/scope.ts`) joins it rather than nesting one.
//
// Work of `cb` may outlive it (a `Promise.all` whose other branch failed): once the transaction's
// owner ended it, the driver would send that work's next command without a transaction, committing
// on its own what the caller was told had failed. So an ended transaction stays in the work's
// context, closed, and every command asked for there is refused (`TransactionEnded`).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientSession, ClientSessionOptions, MongoClient } from 'mongodb';

export interface AmbientTransaction {
  /** until its commit or rollback */
  open: boolean;
  /**
   * Set when its owner ended it (`cb` settled, the write path's work ended): what its asynchronous
   * work still asks for is refused. Not by `cb`'s own `commit()`/`rollback()`: what `cb` does after
   * those runs outside any transaction, as in Strapi.
   */
  closed: boolean;
  /** the open transaction's session; absent where the database has no transactions, or once it ended */
  session?: ClientSession;
  /** run after the commit (shared with nested calls, as Strapi's) */
  commitCallbacks: (() => unknown)[];
  /** run after the rollback */
  rollbackCallbacks: (() => unknown)[];
  /**
   * The write path's settling steps (src/write/scope.ts, `settleAgainAfterCommit`), run once more
   * after the commit, outside it, and awaited before `strapi.db.transaction` answers
   */
  afterCommit: (() => Promise<void>)[];
  /**
   * What the transaction holds until it ends (the leases its work took, src/write/lease.ts): run
   * once it committed or rolled back, whichever, outside it and before the settling steps
   */
  whenEnded: (() => Promise<void>)[];
}

/** What the current asynchronous work runs in: a transaction, and whether the work is detached from it. */
interface AmbientScope {
  transaction: AmbientTransaction;
  /** work that may outlive the transaction by design (event listeners): outside it once it is closed */
  detached: boolean;
}

const storage = new AsyncLocalStorage<AmbientScope>();

/** A command asked for by work that outlived its transaction: refused rather than run on its own. */
export class TransactionEnded extends Error {
  constructor() {
    super(
      'The transaction this work ran in has ended: its later reads and writes are refused ' +
        '(await every write inside the transaction)',
    );
    this.name = 'TransactionEnded';
  }
}

/**
 * The transaction `strapi.db.transaction` holds for the current asynchronous work, if any; throws
 * `TransactionEnded` for work of one its owner closed.
 */
export function ambientTransaction(): AmbientTransaction | undefined {
  const scope = storage.getStore();
  if (!scope?.transaction.closed) return scope?.transaction;
  if (scope.detached) return undefined;
  throw new TransactionEnded();
}

/** The session of the open ambient transaction, if any; throws as `ambientTransaction`. */
export function ambientSession(): ClientSession | undefined {
  return ambientTransaction()?.session;
}

/** Whether the current work runs in an open transaction (never throws). */
export function inOpenAmbientTransaction(): boolean {
  return storage.getStore()?.transaction.open === true;
}

/** Runs `work` with `transaction` as the ambient one. */
export function runInAmbientTransaction<T>(transaction: AmbientTransaction, work: () => Promise<T>): Promise<T> {
  return storage.run({ transaction, detached: false }, work);
}

/**
 * Runs `work`, started by a write but not awaited by it (an event's listeners), in the current
 * transaction while that one is open (its reads see the write) and outside any once its owner
 * closed it, as before: such work is not a part of the transaction that can be refused.
 */
export function detachedFromAmbientTransaction<T>(work: () => T): T {
  const scope = storage.getStore();
  return scope ? storage.run({ transaction: scope.transaction, detached: true }, work) : work();
}

/**
 * Runs `work` outside any ambient transaction: what must not wait for its commit nor be undone by
 * its rollback (id counters, as a SQL database's sequences).
 */
export function outsideAmbientTransaction<T>(work: () => Promise<T>): Promise<T> {
  return storage.exit(work);
}

/** A transaction opened on `session` (started), or without one where the database has no transactions. */
export function openAmbientTransaction(session?: ClientSession): AmbientTransaction {
  return {
    open: true,
    closed: false,
    session,
    commitCallbacks: [],
    rollbackCallbacks: [],
    afterCommit: [],
    whenEnded: [],
  };
}

/** Told of an `onCommit`/`onRollback` callback that failed: ended, they cannot fail the transaction. */
export type CallbackFailure = (error: unknown, ended: 'commit' | 'rollback') => void;

/**
 * Ends the transaction as its owner, once the work it ran has settled: as `endAmbientTransaction`,
 * and closed first, so that what the work left running is refused from now on (not sent without a
 * transaction while the abort runs, nor after it).
 */
export function closeAmbientTransaction(
  transaction: AmbientTransaction,
  how: 'commit' | 'rollback',
  callbackFailed: CallbackFailure,
): Promise<void> {
  transaction.closed = true;
  return endAmbientTransaction(transaction, how, callbackFailed);
}

/**
 * Commits or rolls back once (later calls do nothing), then `whenEnded`, then, after a commit, the
 * settling steps in `afterCommit`, each outside the ended transaction and whatever the one before
 * did (the first failure is thrown once all ran), then that end's callbacks, not awaited, as
 * Strapi's. A commit that fails is rolled back (its rollback callbacks run) and its error thrown.
 */
export async function endAmbientTransaction(
  transaction: AmbientTransaction,
  how: 'commit' | 'rollback',
  callbackFailed: CallbackFailure,
): Promise<void> {
  if (!transaction.open) return;
  transaction.open = false;
  const { session } = transaction;
  transaction.session = undefined;
  let failure: unknown;
  let ended = how;
  try {
    if (session && how === 'commit') await session.commitTransaction();
  } catch (error) {
    failure = error;
    ended = 'rollback';
  }
  try {
    if (session && ended === 'rollback') await session.abortTransaction().catch(() => undefined);
  } finally {
    await session?.endSession();
  }
  const steps = [...transaction.whenEnded, ...(ended === 'commit' ? transaction.afterCommit : [])];
  transaction.whenEnded = [];
  transaction.afterCommit = [];
  for (const step of steps) {
    try {
      await outsideAmbientTransaction(step);
    } catch (error) {
      failure ??= error;
    }
  }
  const callbacks = ended === 'commit' ? transaction.commitCallbacks : transaction.rollbackCallbacks;
  transaction.commitCallbacks = [];
  transaction.rollbackCallbacks = [];
  // outside: the transaction's context may be closed, and the callbacks are the app's own work
  storage.exit(() => {
    for (const callback of callbacks) runCallback(callback, ended, callbackFailed);
  });
  if (failure !== undefined) throw failure;
}

function runCallback(callback: () => unknown, ended: 'commit' | 'rollback', failed: CallbackFailure): void {
  try {
    const result = callback();
    if (result instanceof Promise) result.catch((error: unknown) => failed(error, ended));
  } catch (error) {
    failed(error, ended);
  }
}

const joined = new WeakSet<MongoClient>();

/** Makes the commands `client` sends without a session join the open ambient transaction. */
export function joinAmbientTransactions(client: MongoClient): void {
  if (joined.has(client)) return;
  joined.add(client);
  const startSession = client.startSession.bind(client);
  client.startSession = (options?: ClientSessionOptions & { explicit?: boolean }) => {
    const session = options?.explicit === false ? ambientSession() : undefined;
    return session && !session.hasEnded ? session : startSession(options);
  };
}
