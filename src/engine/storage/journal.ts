import { BSON } from 'bson';
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
  existsSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Catalog, Change } from './catalog.js';
import { lockDataDir } from './lock.js';

/*
 * Persistence: `snapshot.bson` (the state at the last compaction) followed by `journal.bson`
 * (post-images of every acknowledged write since). Both are sequences of records:
 *   uint32 LE length of the BSON body | uint32 LE CRC-32 of the body | BSON body (one Change)
 * The journal is appended and fdatasync'ed once per command, before the reply. At start-up it is
 * replayed up to the first torn or corrupt record, and the tail from there is cut off.
 */

const DESERIALIZE = { promoteLongs: false, bsonRegExp: true } as const;
const COMPACT_AT_BYTES = 64 * 1024 * 1024;

export function encodeRecord(change: Change): Buffer {
  const body = BSON.serialize(change as unknown as Record<string, unknown>);
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]);
}

/** Decodes records until the first incomplete or corrupt one; returns them and the valid length. */
export function decodeRecords(buf: Buffer): { changes: Change[]; validBytes: number } {
  const changes: Change[] = [];
  let offset = 0;
  while (offset + 8 <= buf.length) {
    const length = buf.readUInt32LE(offset);
    const crc = buf.readUInt32LE(offset + 4);
    if (length < 5 || offset + 8 + length > buf.length) break;
    const body = buf.subarray(offset + 8, offset + 8 + length);
    if (crc32(body) !== crc) break;
    try {
      changes.push(BSON.deserialize(body, DESERIALIZE) as unknown as Change);
    } catch {
      break;
    }
    offset += 8 + length;
  }
  return { changes, validBytes: offset };
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function snapshotChanges(catalog: Catalog): Change[] {
  const out: Change[] = [];
  for (const db of catalog.databases()) {
    for (const coll of catalog.collections(db)) {
      out.push({ op: 'create', db, coll: coll.name, options: coll.options });
      for (const ix of coll.indexes.slice(1)) out.push({ op: 'createIndex', db, coll: coll.name, spec: ix.spec });
      for (const doc of coll.all()) out.push({ op: 'put', db, coll: coll.name, doc });
    }
  }
  return out;
}

export class Journal {
  private fd: number;
  private size: number;

  private constructor(
    private readonly dir: string,
    private readonly release: () => void,
    fd: number,
    size: number,
  ) {
    this.fd = fd;
    this.size = size;
  }

  /** Locks the directory, loads snapshot + journal into the catalog, and compacts. */
  static open(dir: string, catalog: Catalog, log: (msg: string) => void): Journal {
    mkdirSync(dir, { recursive: true });
    const release = lockDataDir(dir);
    try {
      const snapshotPath = join(dir, 'snapshot.bson');
      if (existsSync(snapshotPath)) {
        const { changes, validBytes } = decodeRecords(readFileSync(snapshotPath));
        if (validBytes !== statSync(snapshotPath).size) throw new Error(`snapshot ${snapshotPath} is corrupt`);
        catalog.applyAll(changes);
      }
      const journalPath = join(dir, 'journal.bson');
      const fd = openSync(journalPath, 'a+');
      const buf = readFileSync(journalPath);
      const { changes, validBytes } = decodeRecords(buf);
      catalog.applyAll(changes);
      if (validBytes < buf.length) {
        log(`journal: ignored a torn tail of ${buf.length - validBytes} bytes after ${changes.length} records`);
        ftruncateSync(fd, validBytes);
        fdatasyncSync(fd);
      }
      const journal = new Journal(dir, release, fd, validBytes);
      if (validBytes > 0) journal.compact(catalog);
      return journal;
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Appends the changes of one command and makes them durable (one fdatasync). */
  append(changes: Change[], catalog: Catalog): void {
    if (changes.length === 0) return;
    const buf = changes.length === 1 ? encodeRecord(changes[0]) : Buffer.concat(changes.map(encodeRecord));
    let written = 0;
    while (written < buf.length) written += writeSync(this.fd, buf, written, buf.length - written, this.size + written);
    fdatasyncSync(this.fd);
    this.size += buf.length;
    if (this.size > COMPACT_AT_BYTES) this.compact(catalog);
  }

  /** Writes the whole state as a new snapshot (temp, fsync, rename, fsync dir), then empties the journal. */
  compact(catalog: Catalog): void {
    const tmp = join(this.dir, 'snapshot.bson.tmp');
    const fd = openSync(tmp, 'w');
    try {
      const chunk: Buffer[] = [];
      let bytes = 0;
      for (const change of snapshotChanges(catalog)) {
        const rec = encodeRecord(change);
        chunk.push(rec);
        bytes += rec.length;
        if (bytes > 4 * 1024 * 1024) {
          writeAll(fd, Buffer.concat(chunk));
          chunk.length = 0;
          bytes = 0;
        }
      }
      if (chunk.length) writeAll(fd, Buffer.concat(chunk));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(this.dir, 'snapshot.bson'));
    fsyncDir(this.dir);
    ftruncateSync(this.fd, 0);
    fsyncSync(this.fd);
    this.size = 0;
  }

  close(catalog: Catalog | undefined): void {
    try {
      if (catalog && this.size > 0) this.compact(catalog);
    } finally {
      closeSync(this.fd);
      this.release();
    }
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let written = 0;
  while (written < buf.length) written += writeSync(fd, buf, written, buf.length - written);
}
