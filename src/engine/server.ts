import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { GENERIC_COMMAND_FIELDS, type Reply, type ServerState } from './commands/context.js';
import { dispatch, errorReply, maxTimeMSOf } from './commands/registry.js';
import { expireDocuments } from './commands/ttl.js';
import { CursorReply } from './protocol/cursor-reply.js';
import { CursorStore } from './cursors.js';
import type { EngineLog } from './events.js';
import { isPlainObject, type Doc } from './bson/types.js';
import { readMessages } from './protocol/connection.js';
import { serializeReply, type Request } from './protocol/wire.js';
import { Catalog } from './storage/catalog.js';
import { Journal, JournalWriteError, type CrashPoint } from './storage/journal.js';
import { LockConflict, TRANSACTION_COMMANDS, Transactions, type Transaction, type Undoable } from './transactions.js';
import { isWork, runSlice, type TimeBudget, type Work } from './work.js';
import { commandError } from './errors.js';

export interface EngineServerOptions {
  host: string;
  port: number;
  /** also listen on this Unix domain socket (cheaper than TCP for a client on the same machine) */
  socketPath?: string;
  dataDir?: string;
  log: EngineLog;
  /** move damaged data-file bytes aside at start-up instead of refusing to start */
  repair: boolean;
  /** budget of a command without its own maxTimeMS, in ms (0: none) */
  defaultMaxTimeMS: number;
  compactAtBytes?: number;
  crashAt?: CrashPoint;
  /** ms between passes of the TTL monitor (0: none) */
  ttlIntervalMs: number;
  /** multi-document transactions (false: refused with 20, as a standalone mongod) */
  transactions: boolean;
  /** an open transaction is aborted this long after it started */
  transactionLifetimeMs: number;
}

/** How long a command runs before it gives the event loop back to other connections' commands. */
const SLICE_MS = 5;

/** How long no command may have arrived before an index left to build at start-up is built. */
const IDLE_BEFORE_INDEX_BUILD_MS = 250;
/**
 * The same before the first of them, counted from the start: the client that started the engine
 * (the service) is starting too, with pauses of its own between its commands, and a build begun
 * in one of them held its next command up (an index of 100k entries takes 0.3-2 s to sort).
 */
const IDLE_BEFORE_FIRST_INDEX_BUILD_MS = 2000;

interface Connection {
  socket: Socket;
  /** requests received and not answered yet, in order (one runs at a time per connection) */
  queue: Request[];
  running: boolean;
}

/**
 * The TCP server: one catalog, one cursor store, an optional journal. Each connection's commands
 * run in order; reads run in time slices (see work.ts), so the commands of other connections run
 * between the slices of a long one. Writes run whole, and their changes are journaled; no reply
 * leaves before they are durable (see respond); a failed journal write undoes them and makes the
 * engine refuse writes until restart.
 */
export class EngineServer {
  private readonly catalog = new Catalog();
  private readonly cursors = new CursorStore();
  private readonly connections = new Set<Connection>();
  /** changes of the command running now (outside transactions), journaled before its reply */
  private pending: Undoable[] = [];
  /** replies waiting for the journal's appends made before them to be durable, in order (see respond) */
  private held: Array<{ conn: Connection; req: Request; reply: Reply; appended: number }> = [];
  private syncScheduled = false;
  private syncRunning = false;
  private readonly transactions: Transactions;
  private journal: Journal | undefined;
  private background: Work<void> | undefined;
  private readonly servers: Server[] = [];
  private ttlTimer: NodeJS.Timeout | undefined;
  private indexBuild: NodeJS.Timeout | undefined;
  private indexBuildStep: NodeJS.Immediate | undefined;
  /** stops the decoding of documents left encoded (see decodeLoadedDocuments) */
  private stopDecoding: (() => void) | undefined;
  /** when the last command arrived (see buildDeferredIndexes) */
  private lastCommandAt = 0;
  readonly state: ServerState;
  private documentsDecoded!: () => void;
  /** settles once the documents a start left encoded are decoded (or the server stops first) */
  readonly decoded = new Promise<void>((resolve) => (this.documentsDecoded = resolve));

  constructor(private readonly opts: EngineServerOptions) {
    this.state = {
      startedAt: Date.now(),
      host: opts.host,
      port: opts.port,
      connections: { current: 0, totalCreated: 0 },
      log: opts.log,
      ttl: { passes: 0, deletedDocuments: 0 },
      transactions: opts.transactions,
    };
    this.transactions = new Transactions({
      enabled: opts.transactions,
      lifetimeMs: opts.transactionLifetimeMs,
      onEnd: () => this.maybeCompact(),
      onUndoFailed: (err) =>
        opts.log({
          level: 'error',
          event: 'transaction.undo-failed',
          message: `undoing a transaction's write failed: ${(err as Error).message}`,
        }),
    });
    this.catalog.guard = this.transactions;
  }

  async start(): Promise<number> {
    if (this.opts.dataDir) {
      this.journal = Journal.open(this.opts.dataDir, this.catalog, {
        log: this.opts.log,
        repair: this.opts.repair,
        compactAtBytes: this.opts.compactAtBytes,
        crashAt: this.opts.crashAt,
      });
      const journal = this.journal;
      this.state.journal = () => ({ appends: journal.appended, syncs: journal.syncs });
    }
    // a transaction's document writes are its own (journaled at its commit); anything else is the command's
    this.catalog.record = (change, undo) => {
      const txn = this.transactions.current;
      if (txn && (change.op === 'put' || change.op === 'del')) txn.changes.push({ change, undo });
      else this.pending.push({ change, undo });
    };
    this.cursors.startReaper();
    const server = await this.listen((s) => s.listen(this.opts.port, this.opts.host));
    if (this.opts.socketPath) {
      const path = this.opts.socketPath;
      rmSync(path, { force: true }); // left by a process that was killed
      await this.listen((s) => s.listen(path));
    }
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.opts.port;
    this.state.port = port;
    this.maybeCompact();
    this.decodeLoadedDocuments(() => this.buildDeferredIndexes());
    if (this.opts.ttlIntervalMs > 0) {
      this.ttlTimer = setInterval(() => this.expire(), this.opts.ttlIntervalMs);
      this.ttlTimer.unref();
    }
    return port;
  }

  private async listen(start: (server: Server) => void): Promise<Server> {
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    this.servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        resolve();
      });
      start(server);
    });
    return server;
  }

  /**
   * Decodes the documents a start left encoded (see Collection.loadLater), one batch at a time
   * from the moment the engine listens, while the client's own start-up runs on its thread: a
   * command that arrives is served before the next batch (it waits for the batch under way, a
   * few ms at most), and one that needs a collection still encoded decodes the rest of it itself.
   * Then `then`.
   */
  private decodeLoadedDocuments(then: () => void): void {
    const loading = this.catalog
      .databases()
      .flatMap((db) => this.catalog.collections(db))
      .filter((coll) => coll.loading);
    if (loading.length === 0) {
      this.documentsDecoded();
      return then();
    }
    let workMs = 0;
    let steps = 0;
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    this.stopDecoding = () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    };
    const step = (): void => {
      if (this.busy()) {
        // a read running in time slices goes first
        timer = setTimeout(step, 1).unref();
        return;
      }
      // settled meanwhile by a command, or dropped
      while (loading[0] && (!loading[0].loading || this.catalog.get(loading[0].db, loading[0].name) !== loading[0]))
        loading.shift();
      const coll = loading[0];
      if (!coll) {
        this.stopDecoding = undefined;
        const ms = Math.round(workMs);
        this.opts.log({
          level: 'info',
          event: 'documents.decoded',
          message: `documents of the data files decoded (${steps} batches, ${ms} ms of work)`,
          details: { steps, ms },
        });
        this.documentsDecoded();
        then();
        return;
      }
      const started = performance.now();
      try {
        coll.settleStep();
      } catch (err) {
        loading.shift();
        this.opts.log({
          level: 'error',
          event: 'recovery.undecodable',
          message: `${coll.ns}: documents read from the data files cannot be decoded (${(err as Error).message}); every command using the collection fails`,
          details: { ns: coll.ns },
        });
      }
      workMs += performance.now() - started;
      steps++;
      // after the commands that arrived meanwhile (setImmediate runs once pending I/O is handled);
      // not unref'd: the event loop would then wait in its poll for I/O or a timer between steps
      immediate = setImmediate(step);
    };
    immediate = setImmediate(step);
  }

  /** Whether some connection's command is under way (a read between two of its time slices). */
  private busy(): boolean {
    for (const conn of this.connections) if (conn.running) return true;
    return false;
  }

  /**
   * Builds the indexes a start on persisted data left to build, once no command has arrived for
   * IDLE_BEFORE_INDEX_BUILD_MS (IDLE_BEFORE_FIRST_INDEX_BUILD_MS before the first), each in slices
   * of SLICE_MS between commands: a command waits for the slice under way at most (a read that
   * needs an index finishes its build itself), and a client's burst of commands (the service's
   * own start-up) is not held up behind them.
   */
  private buildDeferredIndexes(): void {
    const deferred = this.catalog
      .databases()
      .flatMap((db) => this.catalog.collections(db))
      .flatMap((coll) => coll.indexes.filter((index) => index.deferred));
    if (deferred.length === 0) return;
    const built = deferred.length;
    let buildMs = 0;
    let slices = 0;
    let longestMs = 0;
    let kept = 0;
    let idleBefore = IDLE_BEFORE_FIRST_INDEX_BUILD_MS;
    let building = false;
    this.lastCommandAt = performance.now();
    const next = (): void => {
      this.indexBuild = undefined;
      if (!building) {
        const idleFor = performance.now() - this.lastCommandAt;
        if (idleFor < idleBefore) {
          this.indexBuild = setTimeout(next, idleBefore - idleFor).unref();
          return;
        }
        if (idleBefore === IDLE_BEFORE_FIRST_INDEX_BUILD_MS)
          this.opts.log({
            level: 'info',
            event: 'indexes.building',
            message: `building ${built} indexes of the loaded data in the background, between commands`,
            details: { indexes: built },
          });
        idleBefore = IDLE_BEFORE_INDEX_BUILD_MS;
      }
      if (this.busy()) {
        // a read running in time slices goes first
        this.indexBuild = setTimeout(next, 1).unref();
        return;
      }
      const index = deferred[0];
      if (!index) {
        const ms = Math.round(buildMs);
        const longest = Math.round(longestMs);
        this.opts.log({
          level: 'info',
          event: 'indexes.built',
          message: `indexes of the loaded data built (${ms} ms of work in ${slices} slices, the longest ${longest} ms; ${kept} of ${built} in the order the snapshot kept)`,
          details: { ms, slices, longestMs: longest, built, kept },
        });
        return;
      }
      const started = performance.now();
      building = !index.buildSlice(started + SLICE_MS);
      const spent = performance.now() - started;
      buildMs += spent;
      longestMs = Math.max(longestMs, spent);
      slices++;
      if (!building) {
        deferred.shift();
        if (index.builtFromKeptOrder) kept++;
      }
      // after the commands that arrived meanwhile (see decodeLoadedDocuments)
      this.indexBuildStep = setImmediate(next);
    };
    this.indexBuild = setTimeout(next, 0).unref();
  }

  /**
   * A TTL monitor pass, run between commands like a write: its deletions are journaled together
   * (nothing after a failed journal write, when writes are refused).
   */
  private expire(): void {
    // a locked document waits for its transaction (the next pass deletes it)
    if (this.state.writesRefused !== undefined || this.transactions.locked) return;
    const deleted = expireDocuments(this.catalog, Date.now());
    this.state.ttl.passes++;
    this.state.ttl.deletedDocuments += deleted;
    const outcome = this.commit({ ok: 1 });
    if (deleted > 0 && !(outcome instanceof CursorReply) && outcome.ok === 1)
      this.opts.log({ level: 'info', event: 'ttl.deleted', message: `TTL monitor deleted ${deleted} documents` });
    this.maybeCompact();
  }

  private accept(socket: Socket): void {
    const conn: Connection = { socket, queue: [], running: false };
    this.connections.add(conn);
    this.state.connections.current++;
    this.state.connections.totalCreated++;
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.connections.delete(conn);
      conn.queue.length = 0;
      this.state.connections.current--;
    });
    readMessages(
      socket,
      (req) => {
        this.lastCommandAt = performance.now();
        conn.queue.push(req);
        this.next(conn);
      },
      (err) =>
        this.opts.log({ level: 'warn', event: 'connection.closed', message: `closing a connection: ${err.message}` }),
    );
  }

  /** Starts the connection's queued commands, one after the other, while each finishes at once. */
  private next(conn: Connection): void {
    while (!conn.running && conn.queue.length > 0 && !conn.socket.destroyed) {
      const req = conn.queue.shift() as Request;
      conn.running = true;
      this.execute(conn, req);
    }
  }

  private execute(conn: Connection, req: Request): void {
    const cmd = req.command;
    const name = Object.keys(cmd).find((k) => !GENERIC_COMMAND_FIELDS.has(k)) ?? '';
    let txn: Transaction | undefined;
    try {
      if (name === 'endSessions') this.transactions.endSessions(cmd.endSessions);
      txn = this.transactions.enter(cmd, name);
    } catch (err) {
      this.finish(conn, req, errorReply(err), undefined);
      return;
    }
    if (txn && TRANSACTION_COMMANDS.has(name)) {
      this.finish(
        conn,
        req,
        name === 'commitTransaction' ? this.commitTransaction(txn) : this.abortTransaction(txn),
        undefined,
      );
      return;
    }
    const budget: TimeBudget = { remainingMs: this.budgetOf(cmd) };
    this.transactions.current = txn;
    let started: Reply | Work<Reply>;
    try {
      started = runSlice(
        () =>
          dispatch(cmd, {
            catalog: this.catalog,
            cursors: this.cursors,
            server: this.state,
            overlay: this.transactions.overlays(txn),
          }),
        budget,
        SLICE_MS,
      );
    } finally {
      this.transactions.current = undefined;
    }
    if (isWork(started)) this.run(conn, req, started, budget, txn);
    else this.finish(conn, req, started, txn);
  }

  private run(
    conn: Connection,
    req: Request,
    work: Work<Reply>,
    budget: TimeBudget,
    txn: Transaction | undefined,
  ): void {
    if (conn.socket.destroyed) {
      work.return({ ok: 0, errmsg: 'connection closed' });
      conn.running = false;
      return;
    }
    this.transactions.current = txn;
    let step: IteratorResult<unknown, Reply>;
    try {
      step = runSlice(() => work.next(), budget, SLICE_MS);
    } finally {
      this.transactions.current = undefined;
    }
    if (!step.done) {
      setImmediate(() => {
        this.run(conn, req, work, budget, txn);
        this.next(conn);
      });
      return;
    }
    this.finish(conn, req, step.value, txn);
  }

  private finish(conn: Connection, req: Request, reply: Reply, txn: Transaction | undefined): void {
    let answer = reply;
    const holder = this.transactions.takeConflict();
    if (holder && !txn) {
      // a write outside transactions met a locked document: undone, and run again once the lock is free
      this.undoPending();
      this.park(conn, req, holder);
      return;
    }
    if (txn?.state === 'active' && (holder || failed(reply))) {
      // mongod aborts a transaction whose command fails; a write conflict is retried by the driver
      this.transactions.abort(txn);
      if (holder) answer = errorReply(new LockConflict(holder));
    }
    this.respond(conn, req, this.commit(answer));
    conn.running = false;
    this.maybeCompact();
  }

  /** Runs a command again once `holder` has ended (its locks are free), or fails it when its maxTimeMS runs out first. */
  private park(conn: Connection, req: Request, holder: Transaction): void {
    let timer: NodeJS.Timeout | undefined;
    const wake = (): void => {
      clearTimeout(timer);
      holder.waiters.delete(wake);
      setImmediate(() => {
        conn.running = false;
        conn.queue.unshift(req);
        this.next(conn);
      });
    };
    holder.waiters.add(wake);
    let maxTimeMS: number | undefined;
    try {
      maxTimeMS = maxTimeMSOf(req.command);
    } catch {
      maxTimeMS = undefined;
    }
    if (maxTimeMS !== undefined)
      timer = setTimeout(() => {
        holder.waiters.delete(wake);
        this.respond(conn, req, {
          ok: 0,
          errmsg: 'operation exceeded time limit',
          code: 50,
          codeName: 'MaxTimeMSExpired',
        });
        conn.running = false;
        this.next(conn);
      }, maxTimeMS);
  }

  private undoPending(): void {
    const changes = this.pending;
    this.pending = [];
    for (let i = changes.length - 1; i >= 0; i--) changes[i]?.undo();
  }

  /** Journals a transaction's changes as one group, then frees its locks. */
  private commitTransaction(txn: Transaction): Reply {
    if (txn.state === 'committed') return { ok: 1 }; // a repeated commit
    if (this.state.writesRefused !== undefined && txn.changes.length > 0) {
      this.transactions.abort(txn);
      return errorReply(commandError('UserWritesBlocked', this.state.writesRefused));
    }
    try {
      this.transactions.commit(txn, (changes) => this.journal?.appendGroup(changes));
      this.syncJournal();
      return { ok: 1 };
    } catch (err) {
      return this.journalFailed(err, 'transaction');
    }
  }

  private abortTransaction(txn: Transaction): Reply {
    this.transactions.abort(txn);
    return { ok: 1 };
  }

  /** Makes a command's changes durable before its reply; on failure undoes them and refuses writes from now on. */
  private commit(reply: Reply): Reply {
    if (this.pending.length === 0) return reply;
    const changes = this.pending;
    this.pending = [];
    try {
      this.journal?.append(changes.map((c) => c.change));
      this.syncJournal();
      return reply;
    } catch (err) {
      for (let i = changes.length - 1; i >= 0; i--) changes[i]?.undo();
      return this.journalFailed(err, 'command');
    }
  }

  /**
   * After a journal write failed (its changes undone) or an fdatasync did (`sync`: the changes
   * since the last one may not be on disk): writes are refused from now on; the error to answer.
   */
  private journalFailed(err: unknown, what: 'command' | 'transaction' | 'sync'): Reply {
    const cause = err instanceof JournalWriteError ? err.message : `journal write failed: ${String(err)}`;
    const undone = what !== 'sync';
    this.state.writesRefused = `writes are refused until the engine restarts: ${cause}${undone ? ' (the write was undone)' : ''}`;
    const outcome = undone ? `the ${what}'s changes were undone` : 'the changes waiting for it may not be durable';
    this.opts.log({
      level: 'error',
      event: 'journal.write-failed',
      message: `${cause}: ${outcome}; the engine refuses writes until it restarts`,
    });
    return {
      ok: 0,
      errmsg: `${cause}: ${outcome} and the engine refuses writes until it restarts`,
      code: 42,
      codeName: 'LogWriteFailed',
    };
  }

  /**
   * Sends a reply once every journal append made before it is durable: a write is acknowledged,
   * and a read shows what writes made, only when no crash can lose it. The fdatasync runs once
   * the commands that arrived together have run (the event loop's check phase), and covers all
   * of them (group commit: concurrent writers share one fdatasync; a lone writer waits no longer
   * than for its own).
   */
  private respond(conn: Connection, req: Request, reply: Reply): void {
    if (req.moreToCome || conn.socket.destroyed) return;
    const journal = this.journal;
    if (journal && (journal.appended > journal.durable || this.held.length > 0) && waitsForJournal(req.command)) {
      this.held.push({ conn, req, reply, appended: journal.appended });
      this.syncJournal();
      return;
    }
    this.send(conn, req, reply);
  }

  /**
   * Schedules the fdatasync of the journal's appends (one per turn of the event loop, one at a
   * time, in the background: the next commands run meanwhile), then releases the replies it covers.
   */
  private syncJournal(): void {
    if (this.syncScheduled || this.syncRunning || !this.journal) return;
    this.syncScheduled = true;
    setImmediate(() => {
      this.syncScheduled = false;
      const journal = this.journal;
      if (!journal) return;
      if (journal.durable >= journal.appended) {
        this.releaseHeld();
        return;
      }
      this.syncRunning = true;
      journal.syncInBackground((err) => {
        this.syncRunning = false;
        if (this.journal !== journal) return; // stopped meanwhile (stop synced the journal)
        if (err) {
          this.syncFailed(err);
          return;
        }
        this.releaseHeld();
        if (journal.appended > journal.durable) this.syncJournal();
      });
    });
  }

  private releaseHeld(): void {
    const durable = this.journal?.durable ?? Infinity;
    let n = 0;
    while (n < this.held.length && (this.held[n]?.appended ?? Infinity) <= durable) n++;
    for (const { conn, req, reply } of this.held.splice(0, n)) this.send(conn, req, reply);
  }

  /**
   * An fdatasync failed: what was appended since the last one may not be on disk. Nothing waiting
   * is acknowledged (each gets the error), and writes are refused until the engine restarts.
   */
  private syncFailed(err: Error): void {
    const failure = this.journalFailed(err, 'sync');
    for (const { conn, req } of this.held.splice(0)) this.send(conn, req, failure);
  }

  private send(conn: Connection, req: Request, reply: Reply): void {
    if (conn.socket.destroyed) return;
    let out: Buffer;
    try {
      out = serializeReply(req, reply);
    } catch (err) {
      out = serializeReply(req, tooLargeReply(err));
    }
    conn.socket.write(out);
  }

  private budgetOf(cmd: Doc): number {
    let asked: number | undefined;
    try {
      asked = maxTimeMSOf(cmd);
    } catch {
      asked = undefined; // dispatch answers the bad value
    }
    return asked ?? (this.opts.defaultMaxTimeMS > 0 ? this.opts.defaultMaxTimeMS : Infinity);
  }

  /** Starts a background compaction when the journal wants one; it runs in slices like a read. */
  private maybeCompact(): void {
    // a snapshot must not capture a transaction's uncommitted writes: it starts once none is open
    if (this.background || this.transactions.open > 0 || !this.journal?.wantsCompaction()) return;
    this.background = this.journal.compaction(this.catalog);
    const unlimited: TimeBudget = { remainingMs: Infinity };
    const step = (): void => {
      const work = this.background;
      if (!work) return;
      if (runSlice(() => work.next(), unlimited, SLICE_MS).done) {
        this.background = undefined;
        return;
      }
      setImmediate(step);
    };
    setImmediate(step);
  }

  async stop(): Promise<void> {
    clearInterval(this.ttlTimer);
    clearTimeout(this.indexBuild);
    if (this.indexBuildStep) clearImmediate(this.indexBuildStep);
    this.stopDecoding?.();
    this.documentsDecoded();
    this.cursors.stop();
    for (const conn of this.connections) conn.socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.transactions.abortAll();
    this.background?.return();
    this.background = undefined;
    this.held = []; // their connections are closed
    this.journal?.close(this.catalog);
    this.journal = undefined;
  }
}

/**
 * Whether a reply waits for the journal: all do, but a write sent with `writeConcern: { j: false }`
 * (MongoDB: acknowledged once applied, before the journal has it), such as the service's id
 * counters, whose increments become durable with the next write that waits (one journal, in order).
 */
function waitsForJournal(command: Doc): boolean {
  const concern = command.writeConcern;
  return !(isPlainObject(concern) && concern.j === false);
}

/** A command that failed: an error reply, or write errors. */
function failed(reply: Reply): boolean {
  return !(reply instanceof CursorReply) && (reply.ok !== 1 || reply.writeErrors !== undefined);
}

function tooLargeReply(err: unknown): Doc {
  return {
    ok: 0,
    errmsg: `reply could not be serialized: ${err instanceof Error ? err.message : String(err)}`,
    code: 10334,
    codeName: 'BSONObjectTooLarge',
  };
}
