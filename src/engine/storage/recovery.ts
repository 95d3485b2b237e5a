import { existsSync, ftruncateSync, openSync, closeSync, fdatasyncSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineLog } from '../events.js';
import type { Catalog, Change } from './catalog.js';
import type { Collection } from './collection.js';
import {
  damagedFile,
  fsyncDir,
  LEGACY_JOURNAL_FILE,
  listJournals,
  SNAPSHOT_FILE,
  SNAPSHOT_TMP_FILE,
  writeAll,
  type JournalFile,
} from './data-files.js';
import { decodeBatch } from './document-batch.js';
import { decodePositions } from './index-order.js';
import {
  decodeBody,
  nextIntactRecord,
  readRecord,
  RecordReader,
  type DocsRecord,
  type EncodedDocsRecord,
  type GroupRecord,
  type IndexOrderRecord,
  type MetaRecord,
  type StoredRecord,
} from './records.js';

/** A damaged data file: start-up stops (nothing is changed) unless started with `repair`. */
export class DataDamagedError extends Error {
  override readonly name = 'DataDamagedError';
}

export interface RecoveryOptions {
  log: EngineLog;
  /** move damaged bytes aside into a file of the data directory and keep every intact record */
  repair: boolean;
}

export interface Recovered {
  /** generation of the snapshot loaded (0: none, or format 1) */
  snapshotGeneration: number;
  /** the journals still current (generation >= the snapshot's), oldest first, with their intact length */
  journals: Array<JournalFile & { bytes: number }>;
  /** true when the directory is in format 1 (journal.bson): the caller rewrites it in format 2 */
  legacy: boolean;
}

interface BadRange {
  offset: number;
  end: number;
  reason: string;
}

/**
 * Loads a data directory into `catalog`: the snapshot, then every journal of its generation or
 * later, in order. A torn tail (bytes after the last intact record, nothing intact after them: a
 * write cut by a crash, never acknowledged) is cut off and logged. Bad bytes followed by intact
 * records are damage: without `repair` start-up stops with an error naming the file and the byte
 * offset; with `repair` the bad bytes are moved into `<file>.damaged-<time>` and every intact
 * record is kept.
 */
export function recover(dir: string, catalog: Catalog, opts: RecoveryOptions): Recovered {
  const started = performance.now();
  if (existsSync(join(dir, SNAPSHOT_TMP_FILE))) {
    rmSync(join(dir, SNAPSHOT_TMP_FILE));
    opts.log({
      level: 'info',
      event: 'recovery.unfinished-snapshot',
      message: `removed ${SNAPSHOT_TMP_FILE}, a snapshot that a stop or crash interrupted (the journals hold its changes)`,
    });
  }
  let snapshotGeneration = 0;
  let snapshotRecords = 0;
  let legacy = false;
  if (existsSync(join(dir, SNAPSHOT_FILE))) {
    const bulk = new BulkLoader(catalog);
    loadFile(dir, SNAPSHOT_FILE, 'snapshot', opts, (record, index) => {
      if (record.op === 'meta') {
        if (index === 0) snapshotGeneration = record.generation;
        return;
      }
      if (record.op === 'group') throw new Error('a transaction group in a snapshot');
      if (index === 0) legacy = true;
      bulk.apply(record);
      snapshotRecords++;
    });
  }
  const journals: Recovered['journals'] = [];
  let replayed = 0;
  for (const journal of listJournals(dir)) {
    if (journal.name === LEGACY_JOURNAL_FILE) legacy = true;
    else if (journal.generation < snapshotGeneration) {
      rmSync(join(dir, journal.name));
      opts.log({
        level: 'info',
        event: 'recovery.obsolete-journal',
        message: `removed ${journal.name}: snapshot generation ${snapshotGeneration} already holds its changes (a compaction was interrupted after its snapshot was in place)`,
      });
      continue;
    }
    const bulk = new BulkLoader(catalog);
    let group:
      | {
          offset: number;
          left: number;
          records: Array<Exclude<StoredRecord, MetaRecord | GroupRecord> | EncodedDocsRecord>;
        }
      | undefined;
    let bytes = loadFile(dir, journal.name, 'journal', opts, (record, _index, offset) => {
      if (record.op === 'meta') return;
      if (record.op === 'group') {
        if (group) throw new Error('a transaction group starts inside another');
        group = { offset, left: record.records, records: [] };
        return;
      }
      if (!group) {
        bulk.apply(record);
        replayed++;
        return;
      }
      group.records.push(record);
      if (--group.left > 0) return;
      for (const held of group.records) bulk.apply(held);
      replayed += group.records.length;
      group = undefined;
    });
    if (group) {
      // a transaction whose records were not all written before a crash: never acknowledged
      tornGroup(join(dir, journal.name), journal.name, bytes, group.offset, group.records.length, opts);
      bytes = group.offset;
    }
    journals.push({ ...journal, bytes });
  }
  if (journals.length > 0 || snapshotRecords > 0) {
    opts.log({
      level: 'info',
      event: 'recovery.loaded',
      message: `read ${snapshotRecords} snapshot records (generation ${snapshotGeneration}) and replayed ${replayed} journal records from ${journals.length} journal file(s) in ${Math.round(performance.now() - started)} ms (batches of documents are decoded once the engine listens)`,
      details: { snapshotRecords, snapshotGeneration, replayed, journals: journals.map((j) => j.name) },
    });
  }
  return { snapshotGeneration, journals, legacy };
}

/**
 * Reads one file record by record into `onRecord`; returns the length of its intact part (a torn
 * journal tail is cut off). Damage stops start-up, or is moved aside with `repair`.
 */
function loadFile(
  dir: string,
  file: string,
  kind: 'snapshot' | 'journal',
  opts: RecoveryOptions,
  onRecord: (record: StoredRecord | EncodedDocsRecord, index: number, offset: number) => void,
): number {
  const full = join(dir, file);
  const fd = openSync(full, 'r');
  try {
    const reader = new RecordReader(fd);
    const bad: BadRange[] = [];
    let offset = 0;
    let index = 0;
    let end = 0;
    while (offset < reader.size) {
      const record = reader.recordAt(offset);
      let reason = 'length or checksum does not match';
      if (record) {
        try {
          onRecord(readRecord(record.body), index++, offset);
          offset += record.length;
          end = offset;
          continue;
        } catch (err) {
          reason = `cannot be applied: ${(err as Error).message}`;
        }
      }
      const buf = reader.whole();
      const resumeAt = nextIntactRecord(buf, offset + 1);
      if (resumeAt === undefined && kind === 'journal') {
        tornTail(full, file, buf.length, offset, opts);
        return offset;
      }
      const range = { offset, end: resumeAt ?? buf.length, reason };
      if (!opts.repair) throw damaged(dir, file, range, resumeAt);
      bad.push(range);
      offset = range.end;
    }
    if (bad.length > 0) return repairFile(dir, file, reader.whole(), bad, opts);
    return end;
  } finally {
    closeSync(fd);
  }
}

function damaged(dir: string, file: string, range: BadRange, resumeAt: number | undefined): DataDamagedError {
  const after =
    resumeAt === undefined
      ? 'it runs to the end of the file'
      : `intact records follow from byte offset ${resumeAt}, so this is not a write cut short by a crash`;
  return new DataDamagedError(
    `data file ${join(dir, file)} is damaged at byte offset ${range.offset} ` +
      `(${range.end - range.offset} bytes: record ${range.reason}); ${after}. Nothing was changed. ` +
      `Start with --repair to move the damaged bytes aside into ${join(dir, `${file}.damaged-<time>`)} and keep every intact record.`,
  );
}

function tornTail(full: string, file: string, size: number, offset: number, opts: RecoveryOptions): void {
  durably(full, 'r+', (fd) => ftruncateSync(fd, offset));
  opts.log({
    level: 'warn',
    event: 'recovery.torn-tail',
    message: `${file}: cut a torn tail of ${size - offset} bytes at byte offset ${offset} (a write interrupted by a crash, never acknowledged)`,
    details: { file, offset, bytes: size - offset },
  });
}

function tornGroup(
  full: string,
  file: string,
  size: number,
  offset: number,
  read: number,
  opts: RecoveryOptions,
): void {
  durably(full, 'r+', (fd) => ftruncateSync(fd, offset));
  opts.log({
    level: 'warn',
    event: 'recovery.torn-transaction',
    message: `${file}: dropped a transaction cut short by a crash (${read} of its records written, never acknowledged): cut ${size - offset} bytes at byte offset ${offset}`,
    details: { file, offset, bytes: size - offset, recordsWritten: read },
  });
}

/** Moves the bad ranges into `<file>.damaged-<time>` and rewrites the file with its intact records only. */
function repairFile(dir: string, file: string, buf: Buffer, bad: BadRange[], opts: RecoveryOptions): number {
  const aside = damagedFile(file);
  const tmp = `${file}.repair`;
  const kept: Buffer[] = [];
  let from = 0;
  for (const range of bad) {
    kept.push(buf.subarray(from, range.offset));
    from = range.end;
  }
  kept.push(buf.subarray(from));
  writeFileDurably(join(dir, aside), Buffer.concat(bad.map((r) => buf.subarray(r.offset, r.end))));
  const repaired = Buffer.concat(kept);
  writeFileDurably(join(dir, tmp), repaired);
  renameSync(join(dir, tmp), join(dir, file));
  fsyncDir(dir);
  opts.log({
    level: 'warn',
    event: 'recovery.repaired',
    message: `${file}: moved ${bad.length} damaged range(s) (${bad.map((r) => `${r.end - r.offset} bytes at offset ${r.offset}: ${r.reason}`).join('; ')}) into ${aside}; every intact record was kept`,
    details: { file, movedTo: aside, ranges: bad },
  });
  return repaired.length;
}

function writeFileDurably(full: string, data: Buffer): void {
  durably(full, 'w', (fd) => writeAll(fd, data));
}

/** Opens `full`, changes it, and syncs the change to disk before closing it. */
function durably(full: string, flags: 'w' | 'r+', change: (fd: number) => void): void {
  const fd = openSync(full, flags);
  try {
    change(fd);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Applies the records of a snapshot or journal: documents are put in bulk (they were accepted
 * writes: no unique checks, no index maintenance; indexes are built when first needed).
 */
class BulkLoader {
  private last: Collection | undefined;

  constructor(private readonly catalog: Catalog) {}

  apply(record: Change | DocsRecord | EncodedDocsRecord | IndexOrderRecord): void {
    if (record.op === 'encodedDocs') {
      const { body } = record;
      this.collection(record.db, record.coll).loadLater(() => decodeBatch(decodeBody(body) as DocsRecord));
      return;
    }
    if (record.op === 'indexOrder') {
      this.collection(record.db, record.coll).index(record.index)?.keepOrder(decodePositions(record.positions.buffer));
      return;
    }
    if (record.op === 'docs') {
      this.collection(record.db, record.coll).load(decodeBatch(record));
      return;
    }
    if (record.op === 'put') {
      this.collection(record.db, record.coll).load([record.doc]);
      return;
    }
    if (record.op === 'del') {
      const coll = this.catalog.get(record.db, record.coll);
      if (coll?.loading) {
        coll.removeLater(record.id);
        return;
      }
    }
    this.catalog.apply(record);
    this.last = undefined;
  }

  private collection(db: string, name: string): Collection {
    if (this.last?.db === db && this.last.name === name) return this.last;
    return (this.last = this.catalog.ensure(db, name).coll);
  }
}
