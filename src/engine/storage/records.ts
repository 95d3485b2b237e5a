import { Binary, BSON } from 'bson';
import { fstatSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { isPlainObject } from '../bson/types.js';
import type { Change } from './catalog.js';
import type { DocumentBatch } from './document-batch.js';

/*
 * The record framing shared by snapshot and journal files:
 *   uint32 LE length of the BSON body | uint32 LE CRC-32 of the body | BSON body
 * A body is a `Change` (post-image), the `meta` record that opens every file of format 2, a batch
 * of documents, (in snapshots) an index's order, or (in journals) the head of a transaction's group.
 */

/** First record of a snapshot or journal file: the generation it belongs to (see journal.ts). */
export interface MetaRecord {
  op: 'meta';
  format: 2;
  generation: number;
}

/** Snapshot records: a batch of documents of one collection, in the encoding of document-batch.ts. */
export interface DocsRecord extends DocumentBatch {
  op: 'docs';
  db: string;
  coll: string;
}

/** Snapshot records: the order of an index over the documents before it (see index-order.ts). */
export interface IndexOrderRecord {
  op: 'indexOrder';
  db: string;
  coll: string;
  index: string;
  positions: Binary;
}

/**
 * Journal records: the head of a transaction's records, the `records` that follow it. Start-up
 * applies them only once all are read (a crash while they were written leaves none applied).
 */
export interface GroupRecord {
  op: 'group';
  records: number;
}

export type StoredRecord = Change | MetaRecord | DocsRecord | IndexOrderRecord | GroupRecord;

export const RECORD_HEAD_BYTES = 8;
const MAX_RECORD_BYTES = 48_000_000;
/** A document of 16 MiB and the fields of the change around it. */
const MAX_BODY_BYTES = 16 * 1024 * 1024 + 64 * 1024;
const DESERIALIZE = { promoteLongs: false, bsonRegExp: true, validation: { utf8: false } } as const;

export function encodeRecord(record: StoredRecord): Buffer {
  const body = BSON.serialize(record as unknown as Record<string, unknown>);
  // the serializer silently cuts what does not fit its 17 MiB buffer: never write such a record
  if (body.length > MAX_BODY_BYTES) throw new Error(`a record of ${body.length} bytes is too large to store`);
  const head = Buffer.allocUnsafe(RECORD_HEAD_BYTES);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]);
}

/**
 * A `docs` record as start-up reads it: its collection, and its body (a view of the bytes read)
 * left encoded until the collection is first used (see Collection.loadLater): decoding the
 * documents is most of a start's work.
 */
export interface EncodedDocsRecord {
  op: 'encodedDocs';
  db: string;
  coll: string;
  body: Buffer;
}

/** A record's body decoded, except a batch of documents (see EncodedDocsRecord). */
export function readRecord(body: Buffer): StoredRecord | EncodedDocsRecord {
  const target = docsTarget(body);
  return target ? { op: 'encodedDocs', ...target, body } : decodeBody(body);
}

const BSON_STRING = 0x02;

/** `db` and `coll` of a `docs` record, read from its first three fields (`op`, `db`, `coll`, as written). */
function docsTarget(body: Buffer): { db: string; coll: string } | undefined {
  const values: string[] = [];
  let at = 4;
  for (const name of ['op', 'db', 'coll']) {
    if (body[at] !== BSON_STRING) return undefined;
    const nameEnd = body.indexOf(0, at + 1);
    if (nameEnd < 0 || nameEnd + 5 > body.length || body.toString('latin1', at + 1, nameEnd) !== name) return undefined;
    const length = body.readInt32LE(nameEnd + 1);
    const start = nameEnd + 5;
    if (length < 1 || start + length > body.length) return undefined;
    values.push(body.toString('utf8', start, start + length - 1));
    at = start + length;
  }
  return values[0] === 'docs' ? { db: values[1] as string, coll: values[2] as string } : undefined;
}

export function decodeBody(body: Uint8Array): StoredRecord {
  const record = BSON.deserialize(body, DESERIALIZE) as unknown as StoredRecord;
  detachBinaries(record);
  return record;
}

/**
 * The BSON decoder makes each binary value a view of the bytes it decodes: a stored document
 * would keep the whole record, chunk or file read alive. Each gets its own copy instead.
 */
function detachBinaries(value: unknown): void {
  if (value instanceof Binary) {
    value.buffer = Buffer.from(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === 'object') detachBinaries(v);
  } else if (isPlainObject(value)) {
    for (const k in value) {
      const v = value[k];
      if (v !== null && typeof v === 'object') detachBinaries(v);
    }
  }
}

/** The length of the intact record at `offset` (head, CRC and BSON framing check out), or 0. */
export function intactRecordAt(buf: Buffer, offset: number): number {
  if (offset + RECORD_HEAD_BYTES + 5 > buf.length) return 0;
  const length = buf.readUInt32LE(offset);
  const start = offset + RECORD_HEAD_BYTES;
  if (length < 5 || length > MAX_RECORD_BYTES || start + length > buf.length) return 0;
  // a BSON document starts with its own length and ends with a zero byte: a cheap filter before the CRC
  if (buf.readInt32LE(start) !== length || buf[start + length - 1] !== 0) return 0;
  if (crc32(buf.subarray(start, start + length)) !== buf.readUInt32LE(offset + 4)) return 0;
  return RECORD_HEAD_BYTES + length;
}

const READ_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Reads the records of an open file a few MB at a time (a start-up never holds a whole snapshot
 * in memory), or, once `whole()` was called (damage to look past or repair), from all its bytes.
 */
export class RecordReader {
  readonly size: number;
  private chunk: Buffer = Buffer.alloc(0);
  private chunkStart = 0;
  private all: Buffer | undefined;

  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  /** The intact record at `offset` (see intactRecordAt): its body and its length with the head; undefined if none. */
  recordAt(offset: number): { body: Buffer; length: number } | undefined {
    let buf = this.all;
    let at = offset;
    if (!buf) {
      this.cover(offset, RECORD_HEAD_BYTES);
      if (offset + RECORD_HEAD_BYTES <= this.size) {
        const length = this.chunk.readUInt32LE(offset - this.chunkStart);
        if (length <= MAX_RECORD_BYTES) this.cover(offset, RECORD_HEAD_BYTES + length);
      }
      buf = this.chunk;
      at = offset - this.chunkStart;
    }
    const length = intactRecordAt(buf, at);
    return length === 0 ? undefined : { body: buf.subarray(at + RECORD_HEAD_BYTES, at + length), length };
  }

  /** Every byte of the file. */
  whole(): Buffer {
    if (!this.all) this.all = this.read(0, this.size);
    return this.all;
  }

  /** Makes the chunk hold the bytes [offset, offset + bytes) (as far as the file goes). */
  private cover(offset: number, bytes: number): void {
    const end = Math.min(this.size, offset + bytes);
    if (offset >= this.chunkStart && end <= this.chunkStart + this.chunk.length) return;
    this.chunk = this.read(offset, Math.min(this.size, offset + Math.max(bytes, READ_CHUNK_BYTES)) - offset);
    this.chunkStart = offset;
  }

  private read(offset: number, bytes: number): Buffer {
    const buf = Buffer.allocUnsafeSlow(bytes);
    for (let done = 0; done < bytes;) {
      const n = readSync(this.fd, buf, done, bytes - done, offset + done);
      if (n === 0) throw new Error(`the file ended ${bytes - done} bytes early (changed while read)`);
      done += n;
    }
    return buf;
  }
}

/** Where the next intact record after `from` starts, if any: damage is followed by good records, a torn tail is not. */
export function nextIntactRecord(buf: Buffer, from: number): number | undefined {
  for (let offset = from; offset + RECORD_HEAD_BYTES + 5 <= buf.length; offset++) {
    if (intactRecordAt(buf, offset) > 0) return offset;
  }
  return undefined;
}

/** A stretch of bytes that is not an intact record, with the next intact record after it (if any). */
export interface BadBytes {
  offset: number;
  /** where intact records resume; undefined: nothing intact follows (a torn tail) */
  resumeAt: number | undefined;
}

/**
 * Calls `onRecord` for each intact record from `from` until the end or the first bad bytes, which
 * it returns (with where intact records resume, if they do); `end` is the offset after the last
 * intact record read.
 */
export function scanRecords(
  buf: Buffer,
  from: number,
  onRecord: (body: Buffer, offset: number) => void,
): { end: number; bad?: BadBytes } {
  let offset = from;
  while (offset < buf.length) {
    const size = intactRecordAt(buf, offset);
    if (size === 0) return { end: offset, bad: { offset, resumeAt: nextIntactRecord(buf, offset + 1) } };
    onRecord(buf.subarray(offset + RECORD_HEAD_BYTES, offset + size), offset);
    offset += size;
  }
  return { end: offset };
}
