import { Binary, BSON } from 'bson';
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '../bson/types.js';
import { checkpoint, type Work } from '../work.js';
import type { Catalog, Change } from './catalog.js';
import { fsyncDir, journalFile, listJournals, SNAPSHOT_FILE, SNAPSHOT_TMP_FILE, writeAll } from './data-files.js';
import { lockDataDir } from './lock.js';
import { encodeBatch } from './document-batch.js';
import { encodePositions } from './index-order.js';
import { encodeRecord, type StoredRecord } from './records.js';
import { recover, type RecoveryOptions } from './recovery.js';
import type { IndexSpec } from './secondary-index.js';

/*
 * Persistence with generations. `snapshot.bson` holds the state at generation S; `journal.<G>.bson`
 * the post-images of every acknowledged write made while G was the current generation (appended
 * per command; no reply leaves before an fdatasync covers the appends made until then, and one
 * fdatasync covers every command that ran while the previous one was running: group commit, see
 * EngineServer.respond). The state is the snapshot plus every
 * journal with G >= S, replayed in order; a journal older than the snapshot is obsolete.
 *
 * A compaction never leaves a state that cannot start, whatever step a crash interrupts:
 *   1. journal-created:   journal.<G+1> is created (meta record, fsync) and takes the appends;
 *                         the state is captured in the same tick (documents are never modified
 *                         in place, so holding the current versions is a consistent copy)
 *   2. snapshot-partial:  the captured state is written to snapshot.bson.tmp, in slices between
 *                         commands (a crash leaves a .tmp that start-up removes)
 *   3. snapshot-written:  the .tmp is fsync'ed, generation G+1 in its meta record
 *   4. snapshot-renamed:  renamed over snapshot.bson, directory fsync'ed: journal.<G> is obsolete
 *   5. done:              journals older than G+1 are removed
 * Until 4 the old snapshot plus journals G and G+1 hold everything; from 4 on the new snapshot
 * plus journal G+1 do, and journal G is ignored (replaying it again could resurrect deleted
 * documents or collide on unique indexes).
 */

export const COMPACTION_STEPS = [
  'journal-created',
  'snapshot-partial',
  'snapshot-written',
  'snapshot-renamed',
  'done',
] as const;
export type CompactionStep = (typeof COMPACTION_STEPS)[number];
/**
 * Where a test makes the process kill itself: a compaction step, or `transaction-group` (the
 * first committed transaction of several records gets its group head and first record on disk,
 * not the rest).
 */
export type CrashPoint = CompactionStep | 'transaction-group';

export interface JournalOptions extends RecoveryOptions {
  /** compact once the current journal is larger than this (default 32 MiB: bounds the replay at start-up) */
  compactAtBytes?: number;
  /** test hook: the process kills itself (SIGKILL) there */
  crashAt?: CrashPoint;
}

const DEFAULT_COMPACT_AT_BYTES = 32 * 1024 * 1024;
/** A stop compacts only a journal at least this large; a smaller one is cheap to replay. */
const COMPACT_AT_STOP_BYTES = 4 * 1024 * 1024;
const SNAPSHOT_CHUNK_BYTES = 4 * 1024 * 1024;
const DOCS_PER_BATCH = 256;
/** A batch record larger than this is split (a record must stay under 16 MiB; see records.ts). */
const MAX_BATCH_BYTES = 12 * 1024 * 1024;

/** A journal append or sync that failed: the command's changes were not made durable. */
export class JournalWriteError extends Error {
  constructor(cause: Error) {
    super(`journal write failed: ${cause.message}`, { cause });
  }
}

interface OpenJournal {
  fd: number;
  size: number;
  generation: number;
}

export class Journal {
  private compacting = false;
  /** appends made so far, and how many of them an fdatasync has made durable (see sync) */
  private appends = 0;
  private durableAppends = 0;
  /** fdatasyncs running in the background, and the rotated journal files to close after them */
  private syncing = 0;
  private closeAfterSync: number[] = [];
  /** fdatasyncs made (serverStatus `metrics.journal.syncs`) */
  syncs = 0;
  /** journal files older than the current one still needed (an interrupted compaction): compact soon */
  private behind: number;
  private retryAtBytes = 0;

  private constructor(
    private readonly dir: string,
    private readonly release: () => void,
    private readonly opts: JournalOptions,
    private current: OpenJournal,
    behind: number,
  ) {
    this.behind = behind;
  }

  /** Locks the directory, loads it into the catalog (see recovery.ts) and opens the journal to append to. */
  static open(dir: string, catalog: Catalog, opts: JournalOptions): Journal {
    mkdirSync(dir, { recursive: true });
    const release = lockDataDir(dir);
    try {
      const recovered = recover(dir, catalog, opts);
      const last = recovered.journals.at(-1);
      const current: OpenJournal = last
        ? { fd: openSync(join(dir, last.name), 'r+'), size: last.bytes, generation: last.generation }
        : createJournal(dir, Math.max(1, recovered.snapshotGeneration));
      const journal = new Journal(dir, release, opts, current, Math.max(0, recovered.journals.length - 1));
      if (recovered.legacy) {
        // format 1 (journal.bson, no generations): rewrite the directory in format 2 once
        journal.finishCompaction(catalog);
      }
      return journal;
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * Appends the changes of one command (written to the file; durable once `sync` covers it). On
   * failure the file is cut back to where it was and JournalWriteError is thrown: nothing of it
   * counts.
   */
  append(changes: Change[]): void {
    if (changes.length === 0) return;
    const records = journalRecords(changes);
    this.write(
      records.length === 1 ? encodeRecord(records[0] as StoredRecord) : Buffer.concat(records.map(encodeRecord)),
    );
  }

  /**
   * Appends the changes of a committed transaction as one group (a `group` record counting the
   * records after it; start-up applies all of them or none); fails as `append` does.
   */
  appendGroup(changes: Change[]): void {
    const records = journalRecords(changes);
    if (records.length === 0) return;
    const group: StoredRecord[] =
      records.length === 1 ? records : [{ op: 'group', records: records.length }, ...records];
    const encoded = group.map(encodeRecord);
    if (this.opts.crashAt === 'transaction-group' && encoded.length > 2) {
      this.write(Buffer.concat(encoded.slice(0, 2)));
      this.crash('transaction-group');
    }
    this.write(Buffer.concat(encoded));
  }

  private write(buf: Buffer): void {
    const at = this.current.size;
    try {
      writeAll(this.current.fd, buf, at);
    } catch (err) {
      try {
        ftruncateSync(this.current.fd, at);
      } catch {
        // the torn record left behind is cut off at the next start
      }
      throw new JournalWriteError(err as Error);
    }
    this.current.size += buf.length;
    this.appends++;
  }

  /** The number of appends so far: durable once `durable` reaches it. */
  get appended(): number {
    return this.appends;
  }

  /** The number of appends an fdatasync has made durable. */
  get durable(): number {
    return this.durableAppends;
  }

  /**
   * Makes every append so far durable with one fdatasync (the server calls it once for all the
   * commands that ran since the last one: group commit). Throws JournalWriteError on failure.
   */
  sync(): void {
    if (this.durableAppends === this.appends) return;
    this.syncs++;
    try {
      fdatasyncSync(this.current.fd);
    } catch (err) {
      throw new JournalWriteError(err as Error);
    }
    this.durableAppends = this.appends;
  }

  /**
   * `sync` on libuv's thread pool, so that the engine's thread runs the next commands while the
   * disk flushes; `done` once the appends made until now are durable (or with the error).
   */
  syncInBackground(done: (err?: JournalWriteError) => void): void {
    const target = this.appends;
    const fd = this.current.fd;
    this.syncs++;
    this.syncing++;
    fdatasync(fd, (err) => {
      this.syncing--;
      if (this.syncing === 0) for (const old of this.closeAfterSync.splice(0)) closeSync(old);
      if (err) {
        done(new JournalWriteError(err));
        return;
      }
      if (target > this.durableAppends) this.durableAppends = target;
      done();
    });
  }

  /** Closes a journal file, once no fdatasync in the background uses it any more. */
  private closeFile(fd: number): void {
    if (this.syncing > 0) this.closeAfterSync.push(fd);
    else closeSync(fd);
  }

  /** Whether a background compaction should start now (journal large enough, or older journals left). */
  wantsCompaction(): boolean {
    if (this.compacting || this.current.size < this.retryAtBytes) return false;
    return this.current.size > (this.opts.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES) || this.behind > 0;
  }

  /** A compaction as cooperative work (run between commands; see the steps above). */
  *compaction(catalog: Catalog): Work<void> {
    if (this.compacting) return;
    this.compacting = true;
    const started = performance.now();
    const tmp = join(this.dir, SNAPSHOT_TMP_FILE);
    let tmpFd: number | undefined;
    try {
      const generation = this.current.generation + 1;
      const next = createJournal(this.dir, generation);
      this.sync();
      this.closeFile(this.current.fd);
      this.current = next;
      this.behind++;
      this.crash('journal-created');
      const state = capture(catalog);
      this.opts.log({
        level: 'info',
        event: 'compaction.started',
        message: `compaction to generation ${generation} started (${state.reduce((n, c) => n + c.docs.length, 0)} documents)`,
      });
      tmpFd = openSync(tmp, 'w');
      const writer = new ChunkWriter(tmpFd);
      writer.add({ op: 'meta', format: 2, generation });
      for (const coll of state) {
        writer.add({ op: 'create', db: coll.db, coll: coll.name, options: coll.options });
        for (let i = 0; i < coll.docs.length; i += DOCS_PER_BATCH) {
          for (const record of docRecords(coll.db, coll.name, coll.docs.slice(i, i + DOCS_PER_BATCH)))
            writer.add(record);
          if (this.opts.crashAt === 'snapshot-partial') writer.flush(); // some of the snapshot on disk, not all
          this.crash('snapshot-partial');
          if (checkpoint()) yield;
        }
        // indexes after the documents: loading builds each index once over all of them, its sort
        // starting from the order kept here
        const positionOf = new Map(coll.docs.map((doc, i) => [doc, i]));
        for (const { spec, owners } of coll.indexes) {
          writer.add({ op: 'createIndex', db: coll.db, coll: coll.name, spec });
          const positions = owners && encodePositions(owners, positionOf);
          if (positions)
            writer.add({
              op: 'indexOrder',
              db: coll.db,
              coll: coll.name,
              index: spec.name,
              positions: new Binary(positions),
            });
          if (checkpoint()) yield;
        }
      }
      writer.flush();
      fsyncSync(tmpFd);
      closeSync(tmpFd);
      tmpFd = undefined;
      this.crash('snapshot-written');
      renameSync(tmp, join(this.dir, SNAPSHOT_FILE));
      fsyncDir(this.dir);
      this.crash('snapshot-renamed');
      for (const old of listJournals(this.dir)) if (old.generation < generation) rmSync(join(this.dir, old.name));
      fsyncDir(this.dir);
      this.behind = 0;
      this.retryAtBytes = 0;
      this.crash('done');
      this.opts.log({
        level: 'info',
        event: 'compaction.finished',
        message: `compaction to generation ${generation} finished in ${Math.round(performance.now() - started)} ms (snapshot ${writer.bytes} bytes)`,
        details: { generation, bytes: writer.bytes, ms: Math.round(performance.now() - started) },
      });
    } catch (err) {
      // the journals still hold everything; try again once the journal has grown some more
      this.retryAtBytes = this.current.size + (this.opts.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES);
      this.opts.log({
        level: 'error',
        event: 'compaction.failed',
        message: `compaction failed (the journals still hold every change): ${(err as Error).message}`,
      });
    } finally {
      if (tmpFd !== undefined) closeSync(tmpFd);
      rmSync(tmp, { force: true }); // gone after the rename; a leftover of a failed or abandoned compaction
      this.compacting = false;
    }
  }

  /** Runs a whole compaction now, without giving the event loop back (start-up conversion, stop). */
  finishCompaction(catalog: Catalog): void {
    const work = this.compaction(catalog);
    for (let step = work.next(); !step.done; step = work.next());
  }

  /** Compacts a journal worth compacting, closes it and unlocks the directory. */
  close(catalog: Catalog | undefined): void {
    try {
      this.sync();
      if (catalog && (this.current.size > COMPACT_AT_STOP_BYTES || this.behind > 0)) this.finishCompaction(catalog);
    } finally {
      this.closeFile(this.current.fd);
      this.release();
    }
  }

  private crash(step: CrashPoint): void {
    if (this.opts.crashAt === step) process.kill(process.pid, 'SIGKILL');
  }
}

/** Creates journal.<generation>.bson with its meta record, durably (file and directory). */
function createJournal(dir: string, generation: number): OpenJournal {
  const fd = openSync(join(dir, journalFile(generation)), 'w+');
  const meta = encodeRecord({ op: 'meta', format: 2, generation });
  try {
    writeAll(fd, meta, 0);
    fdatasyncSync(fd);
    fsyncDir(dir);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return { fd, size: meta.length, generation };
}

/**
 * Records for documents of one collection: one batch, split while it is too large for a record;
 * a document too large for any batch is a plain `put`.
 */
function docRecords(db: string, coll: string, docs: Doc[]): StoredRecord[] {
  const batch = encodeBatch(docs);
  // an upper bound of the encoded size: up to 3 UTF-8 bytes per character of the JSON texts
  const texts = batch.json.length + batch.paths.length + (batch.strings?.length ?? 0);
  if (texts * 3 + BSON.calculateObjectSize({ values: batch.values }) <= MAX_BATCH_BYTES)
    return [{ op: 'docs', db, coll, ...batch }];
  if (docs.length === 1) return [{ op: 'put', db, coll, doc: docs[0] as Doc }];
  const half = docs.length >> 1;
  return [...docRecords(db, coll, docs.slice(0, half)), ...docRecords(db, coll, docs.slice(half))];
}

/**
 * The records of one command's changes: documents put into one collection go as document batches,
 * a lone one too (as in snapshots: decoded natively once the engine listens, as compact as the
 * snapshot's documents, and one record rather than one per document; a BSON post-image was
 * decoded before it listens, about twice as slowly, into objects about 2 KB larger), anything
 * else as the change itself.
 */
function journalRecords(changes: Change[]): StoredRecord[] {
  const out: StoredRecord[] = [];
  let i = 0;
  while (i < changes.length) {
    const first = changes[i];
    if (first.op !== 'put') {
      out.push(first);
      i++;
      continue;
    }
    const docs: Doc[] = [];
    for (let c: Change | undefined = first; c?.op === 'put' && c.db === first.db && c.coll === first.coll;) {
      docs.push(c.doc);
      c = changes[++i];
    }
    for (let k = 0; k < docs.length; k += DOCS_PER_BATCH)
      out.push(...docRecords(first.db, first.coll, docs.slice(k, k + DOCS_PER_BATCH)));
  }
  return out;
}

interface CapturedCollection {
  db: string;
  name: string;
  options: Doc;
  /** each index with its documents in index order, when it can be kept (see index-order.ts) */
  indexes: Array<{ spec: IndexSpec; owners: Doc[] | undefined }>;
  docs: Doc[];
}

function capture(catalog: Catalog): CapturedCollection[] {
  const out: CapturedCollection[] = [];
  for (const db of catalog.databases()) {
    for (const coll of catalog.collections(db)) {
      out.push({
        db,
        name: coll.name,
        options: coll.options,
        indexes: coll.indexes.slice(1).map((ix) => ({ spec: ix.spec, owners: ix.ownersInOrder() })),
        docs: [...coll.all()],
      });
    }
  }
  return out;
}

/** Buffers encoded records and writes them in chunks of a few MB. */
class ChunkWriter {
  private chunk: Buffer[] = [];
  private chunkBytes = 0;
  bytes = 0;

  constructor(private readonly fd: number) {}

  add(record: StoredRecord): void {
    const encoded = encodeRecord(record);
    this.chunk.push(encoded);
    this.chunkBytes += encoded.length;
    if (this.chunkBytes >= SNAPSHOT_CHUNK_BYTES) this.flush();
  }

  flush(): void {
    if (this.chunk.length === 0) return;
    writeAll(this.fd, Buffer.concat(this.chunk, this.chunkBytes));
    this.bytes += this.chunkBytes;
    this.chunk = [];
    this.chunkBytes = 0;
  }
}
