import { Binary } from 'bson';
import { valueKey } from './bson/compare.js';
import type { Doc } from './bson/types.js';
import { CommandError, commandError } from './errors.js';
import type { Change } from './storage/catalog.js';
import type { Collection } from './storage/collection.js';
import type { Overlay, OverlayOf } from './storage/overlay.js';

/*
 * Multi-document transactions (the driver's protocol: `lsid`, `txnNumber`, `autocommit: false`,
 * `startTransaction: true` on the first command, then `commitTransaction` / `abortTransaction`).
 *
 * The engine runs one command at a time, so a transaction's writes are applied in place as they
 * come, each with its undo, and every document it writes is locked until it ends (also a deleted
 * one), with the unique index keys its versions take or give up (so a key it took is not taken
 * twice whatever it decides, and an undo always finds its place free). Another transaction
 * writing a locked document or key gets WriteConflict (112, TransientTransactionError: the
 * driver's `withTransaction` retries it); a write outside any transaction waits for the lock (see
 * server.ts), as mongod's do. Its journal records are appended at commit as one group, which a
 * start-up replays whole or not at all (recovery.ts). Abort, a transaction left open past its
 * lifetime, or `endSessions` undo the writes in place, newest first.
 *
 * Isolation: read committed. The version of each document a transaction wrote before its first
 * write there is kept until it ends; every other session reads through an overlay of those
 * committed versions (storage/overlay.ts), so it never sees an uncommitted write, and the
 * transaction reads its own writes. Writes read the same way, and one that matched a document
 * another transaction holds meets its lock.
 */

/** A change made by a command, with what undoes it in memory. */
export interface Undoable {
  change: Change;
  undo: () => void;
}

/** A document an open transaction wrote, with its version before the transaction's first write (undefined: it inserted it). */
interface Written {
  holder: Transaction;
  committed: Doc | undefined;
}

export class Transaction {
  /** its document writes, in order (journaled as one group at commit) */
  readonly changes: Undoable[] = [];
  /** the locks it holds: [namespace, lock key] */
  readonly held: Array<[string, string]> = [];
  state: 'active' | 'committed' | 'aborted' = 'active';
  /** run once it ends (commands parked on its locks) */
  readonly waiters = new Set<() => void>();
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly session: string,
    readonly number: number,
  ) {}
}

/** The error a write meets on a document (or unique key) another transaction holds. */
export class LockConflict extends CommandError {
  constructor(readonly holder: Transaction) {
    super(
      112,
      'WriteConflict',
      'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
      { errorLabels: ['TransientTransactionError'] },
    );
  }
}

/** Commands a transaction may run (mongod refuses the others with 263). */
const ALLOWED_IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'aggregate',
  'distinct',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'create',
  'createIndexes',
  'commitTransaction',
  'abortTransaction',
]);

const TRANSACTION_FIELDS = ['txnNumber', 'startTransaction', 'autocommit'];
export const TRANSACTION_COMMANDS = new Set(['commitTransaction', 'abortTransaction']);
const TRANSIENT = { errorLabels: ['TransientTransactionError'] };
/** Finished transactions are remembered (to answer a repeated commit) this long, as mongod's session timeout. */
const FINISHED_KEPT_MS = 30 * 60_000;

export interface TransactionsOptions {
  /** false: refused with code 20, as a standalone mongod does */
  enabled: boolean;
  /** an open transaction is aborted this long after it started (mongod's transactionLifetimeLimitSeconds) */
  lifetimeMs: number;
  /** after a transaction ends (its locks are free) */
  onEnd: (txn: Transaction) => void;
  /** an undo that failed (a bug: the state may differ from the journal) */
  onUndoFailed: (err: unknown) => void;
}

export class Transactions {
  /** the last transaction of each session */
  private readonly sessions = new Map<string, Transaction & { endedAt?: number }>();
  /** namespace → lock key (`d` + document id, or `k` + unique index + key) → holder */
  private readonly locks = new Map<string, Map<string, Transaction>>();
  private lockCount = 0;
  /** namespace → `_id` key → a document an open transaction wrote */
  private readonly written = new Map<string, Map<string, Written>>();
  /** moves at every transaction's document write and at every end (overlays taken before are stale) */
  private writes = 0;
  private active = 0;
  /** the transaction of the command running now */
  current: Transaction | undefined;
  /** the holder of a lock the running command met (the command is undone, see server.ts) */
  private met: Transaction | undefined;

  constructor(private readonly opts: TransactionsOptions) {}

  get enabled(): boolean {
    return this.opts.enabled;
  }

  /** Transactions open now. */
  get open(): number {
    return this.active;
  }

  /** Whether any transaction holds a lock (the TTL monitor waits while one does). */
  get locked(): boolean {
    return this.lockCount > 0;
  }

  /**
   * The transaction a command belongs to (undefined: none), started by its `startTransaction`.
   * Throws the protocol's errors: transaction numbers on a disabled engine or without
   * `autocommit: false` (retryable writes: a standalone's 20), an unknown or finished transaction
   * (251, with TransientTransactionError), a command not allowed in one (263, which aborts it).
   */
  enter(cmd: Doc, name: string): Transaction | undefined {
    const commandOfTxn = TRANSACTION_COMMANDS.has(name);
    if (!commandOfTxn && !TRANSACTION_FIELDS.some((f) => cmd[f] !== undefined)) return undefined;
    if (!this.opts.enabled || cmd.autocommit !== false)
      throw commandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
    const session = sessionKey(cmd.lsid);
    const number = txnNumberOf(cmd.txnNumber);
    const last = this.sessions.get(session);
    if (cmd.startTransaction === true) {
      if (commandOfTxn) throw commandError('InvalidOptions', `Cannot start a transaction with ${name}`);
      if (last && number <= last.number) {
        if (number < last.number) throw tooOld(number, last.number);
        throw new CommandError(
          117,
          'ConflictingOperationInProgress',
          `Transaction ${number} has already been started on this session`,
        );
      }
      if (last?.state === 'active') this.abort(last);
      if (!ALLOWED_IN_TRANSACTION.has(name)) throw notAllowed(name);
      return this.begin(session, number);
    }
    if (!last || number > last.number)
      throw commandError(
        'NoSuchTransaction',
        `Given transaction number ${number} does not match any in-progress transactions. The active transaction number is ${last?.number ?? -1}`,
        TRANSIENT,
      );
    if (number < last.number) throw tooOld(number, last.number);
    if (last.state === 'aborted')
      throw commandError('NoSuchTransaction', `Transaction with { txnNumber: ${number} } has been aborted.`, TRANSIENT);
    if (last.state === 'committed') {
      if (name === 'commitTransaction') return last; // a repeated commit: answered ok
      throw commandError('TransactionCommitted', `Transaction with { txnNumber: ${number} } has been committed.`);
    }
    if (!ALLOWED_IN_TRANSACTION.has(name)) {
      this.abort(last);
      throw notAllowed(name);
    }
    return last;
  }

  private begin(session: string, number: number): Transaction {
    this.forgetFinished();
    const txn = new Transaction(session, number);
    this.sessions.set(session, txn);
    this.active++;
    txn.timer = setTimeout(() => this.abort(txn), this.opts.lifetimeMs);
    txn.timer.unref();
    return txn;
  }

  private forgetFinished(): void {
    if (this.sessions.size < 1000) return;
    const before = Date.now() - FINISHED_KEPT_MS;
    for (const [key, txn] of this.sessions)
      if (txn.endedAt !== undefined && txn.endedAt < before) this.sessions.delete(key);
  }

  /**
   * Commits: `persist` makes the changes durable (one journal group); if it throws, the
   * transaction is undone instead and the error goes on.
   */
  commit(txn: Transaction, persist: (changes: Change[]) => void): void {
    if (txn.state !== 'active') return;
    try {
      persist(txn.changes.map((c) => c.change));
    } catch (err) {
      this.abort(txn);
      throw err;
    }
    this.end(txn, 'committed');
  }

  /** Undoes an open transaction's writes in place, newest first, and frees its locks. */
  abort(txn: Transaction): void {
    if (txn.state !== 'active') return;
    for (let i = txn.changes.length - 1; i >= 0; i--) {
      try {
        txn.changes[i]?.undo();
      } catch (err) {
        this.opts.onUndoFailed(err);
      }
    }
    this.end(txn, 'aborted');
  }

  /** `endSessions`: their open transactions are aborted and forgotten. */
  endSessions(ids: unknown): void {
    if (!Array.isArray(ids)) return;
    for (const lsid of ids) {
      let key: string;
      try {
        key = sessionKey(lsid);
      } catch {
        continue;
      }
      const txn = this.sessions.get(key);
      if (txn) this.abort(txn);
      this.sessions.delete(key);
    }
  }

  /** Aborts every open transaction (the engine stops). */
  abortAll(): void {
    for (const txn of this.sessions.values()) this.abort(txn);
  }

  private end(txn: Transaction & { endedAt?: number }, state: 'committed' | 'aborted'): void {
    txn.state = state;
    txn.endedAt = Date.now();
    clearTimeout(txn.timer);
    txn.changes.length = 0;
    const wrote = new Set<string>();
    for (const [ns, key] of txn.held) {
      if (key.startsWith('d')) wrote.add(ns);
      const locks = this.locks.get(ns);
      if (locks?.get(key) !== txn) continue;
      locks.delete(key);
      this.lockCount--;
      if (locks.size === 0) this.locks.delete(ns);
    }
    txn.held.length = 0;
    for (const ns of wrote) this.forgetWritten(ns, txn);
    this.writes++;
    this.active--;
    const waiters = [...txn.waiters];
    txn.waiters.clear();
    for (const wake of waiters) wake();
    this.opts.onEnd(txn);
  }

  /** The holder of a lock the running command met, once (then forgotten). */
  takeConflict(): Transaction | undefined {
    const holder = this.met;
    this.met = undefined;
    return holder;
  }

  /**
   * Before a document is inserted (`old` undefined), replaced or removed (`next` undefined): fails
   * with LockConflict when another transaction holds the document or a unique key the new version
   * takes; in a transaction, locks the document and the unique keys of both versions, and keeps
   * the committed version at its first write there.
   */
  document(coll: Collection, old: Doc | undefined, next: Doc | undefined): void {
    const txn = this.current;
    if (txn === undefined && this.lockCount === 0) return;
    const ns = coll.ns;
    const locks = this.locks.get(ns);
    const id = valueKey((next ?? old)?._id);
    const docKey = `d${id}`;
    if (locks) {
      this.check(locks.get(docKey));
      if (next) for (const key of uniqueKeys(coll, next)) this.check(locks.get(key));
    }
    if (!txn) return;
    // the stored version is the committed one until this transaction's first write (nobody else holds it)
    if (this.lock(txn, ns, docKey)) this.remember(ns, id, { holder: txn, committed: coll.get(id) });
    this.writes++;
    for (const version of [old, next])
      if (version) for (const key of uniqueKeys(coll, version)) this.lock(txn, ns, key);
  }

  /**
   * Before a write changes the documents it matched (read through its overlay): fails with
   * LockConflict when another transaction holds one of them. (A document that transaction deleted
   * is not stored: its removal would find nothing to refuse.)
   */
  matched(coll: Collection, docs: readonly Doc[]): void {
    if (this.lockCount === 0) return;
    const locks = this.locks.get(coll.ns);
    if (!locks) return;
    for (const d of docs) this.check(locks.get(`d${valueKey(d._id)}`));
  }

  /**
   * The overlays a command of `reader` (undefined: outside transactions) reads collections through:
   * the other open transactions' writes replaced by the committed versions (storage/overlay.ts).
   * Each is taken when asked, and kept until the next transaction write or end.
   */
  overlays(reader: Transaction | undefined): OverlayOf {
    const taken = new Map<string, { at: number; overlay: Overlay | undefined }>();
    return (coll) => {
      if (this.written.size === 0) return undefined;
      const written = this.written.get(coll.ns);
      if (!written) return undefined;
      const known = taken.get(coll.ns);
      if (known && known.at === this.writes) return known.overlay;
      const overlay = overlayOf(coll, written, reader);
      taken.set(coll.ns, { at: this.writes, overlay });
      return overlay;
    };
  }

  private remember(ns: string, id: string, written: Written): void {
    let docs = this.written.get(ns);
    if (!docs) {
      docs = new Map();
      this.written.set(ns, docs);
    }
    docs.set(id, written);
  }

  private forgetWritten(ns: string, txn: Transaction): void {
    const docs = this.written.get(ns);
    if (!docs) return;
    for (const [id, w] of docs) if (w.holder === txn) docs.delete(id);
    if (docs.size === 0) this.written.delete(ns);
  }

  /** Before a change to a collection itself (drop, rename, indexes, options): waits for other transactions' locks on it. */
  namespace(db: string, coll?: string): void {
    if (this.lockCount === 0) return;
    for (const [ns, locks] of this.locks) {
      if (coll === undefined ? !ns.startsWith(`${db}.`) : ns !== `${db}.${coll}`) continue;
      for (const holder of locks.values()) this.check(holder);
    }
  }

  private check(holder: Transaction | undefined): void {
    if (holder === undefined || holder === this.current) return;
    this.met = holder;
    throw new LockConflict(holder);
  }

  /** Takes a lock for `txn` (nobody else holds it: checked before); true when it did not hold it yet. */
  private lock(txn: Transaction, ns: string, key: string): boolean {
    let locks = this.locks.get(ns);
    if (!locks) {
      locks = new Map();
      this.locks.set(ns, locks);
    }
    if (locks.has(key)) return false;
    locks.set(key, txn);
    txn.held.push([ns, key]);
    this.lockCount++;
    return true;
  }
}

/** The overlay of a collection for `reader`: the documents other transactions wrote, as committed. */
function overlayOf(
  coll: Collection,
  written: ReadonlyMap<string, Written>,
  reader: Transaction | undefined,
): Overlay | undefined {
  const replaced = new Map<Doc, Doc | undefined>();
  const deleted: Doc[] = [];
  for (const [id, { holder, committed }] of written) {
    if (holder === reader) continue;
    const stored = coll.get(id);
    if (stored) replaced.set(stored, committed);
    else if (committed) deleted.push(committed);
  }
  return replaced.size === 0 && deleted.length === 0 ? undefined : { replaced, deleted };
}

/** Lock keys of a document's entries in the collection's unique secondary indexes. */
function uniqueKeys(coll: Collection, doc: Doc): string[] {
  const out: string[] = [];
  for (let i = 1; i < coll.indexes.length; i++) {
    const index = coll.indexes[i];
    if (!index?.unique) continue;
    for (const key of index.keysOf(doc)) out.push(`k${index.spec.name}\u0000${valueKey(key)}`);
  }
  return out;
}

function sessionKey(lsid: unknown): string {
  const id = (lsid as { id?: unknown } | undefined)?.id;
  if (!(id instanceof Binary))
    throw commandError('InvalidOptions', 'Transaction numbers are only allowed in a session (lsid with an id)');
  return Buffer.from(id.buffer).toString('hex');
}

function txnNumberOf(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'object' && raw !== null ? Number(String(raw)) : Number.NaN;
  if (!Number.isInteger(n) || n < 0) throw commandError('InvalidOptions', 'txnNumber must be a non-negative integer');
  return n;
}

function tooOld(number: number, current: number): CommandError {
  return commandError(
    'TransactionTooOld',
    `Cannot start transaction ${number} on session because a newer transaction ${current} has already started`,
  );
}

function notAllowed(name: string): CommandError {
  return commandError('OperationNotSupportedInTransaction', `Cannot run '${name}' in a multi-document transaction.`);
}
