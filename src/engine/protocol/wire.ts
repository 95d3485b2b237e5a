import { BSON, Long } from 'bson';
import type { Doc } from '../bson/types.js';
import { CursorReply } from './cursor-reply.js';
import { decodeStage } from './stage-cache.js';

/** MongoDB wire protocol (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/). */
export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const MSG_CHECKSUM_PRESENT = 1 << 0;
export const MSG_MORE_TO_COME = 1 << 1;
const KNOWN_MSG_FLAGS = MSG_CHECKSUM_PRESENT | MSG_MORE_TO_COME | (1 << 16);

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

export class ProtocolError extends Error {}

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

/** A request decoded into a command document; `moreToCome` requests get no reply. */
export interface Request {
  header: MessageHeader;
  kind: 'msg' | 'query';
  command: Doc;
  moreToCome: boolean;
}

const DESERIALIZE = { promoteLongs: false, bsonRegExp: true, validation: { utf8: false } } as const;

export function readHeader(buf: Buffer): MessageHeader {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

/** An `aggregate` command's stages come raw, to be decoded through the stage cache. */
const DESERIALIZE_AGGREGATE = { ...DESERIALIZE, fieldsAsRaw: { pipeline: true } } as const;
/** The first element of an `aggregate` command: a string named `aggregate`. */
const AGGREGATE_ELEMENT = Buffer.from('\x02aggregate\x00', 'latin1');

function readDocument(
  buf: Buffer,
  offset: number,
  end: number,
  decode: (bytes: Buffer) => Doc = decodeDocument,
): [Doc, number] {
  if (offset + 5 > end) throw new ProtocolError('truncated document');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError('invalid document length');
  try {
    return [decode(buf.subarray(offset, offset + size)), offset + size];
  } catch (err) {
    throw new ProtocolError(`invalid BSON: ${(err as Error).message}`);
  }
}

function decodeDocument(bytes: Buffer): Doc {
  return BSON.deserialize(bytes, DESERIALIZE) as Doc;
}

/** A message's body: an `aggregate` command with its stages from the stage cache, any other as it is. */
function decodeBody(bytes: Buffer): Doc {
  const first = AGGREGATE_ELEMENT.length + 4;
  if (bytes.length < first || !AGGREGATE_ELEMENT.equals(bytes.subarray(4, first))) return decodeDocument(bytes);
  const body = BSON.deserialize(bytes, DESERIALIZE_AGGREGATE) as Doc;
  // raw applies to an array named `pipeline` at any depth: where one may be held outside the
  // stages (the variables, a comment), the command is decoded as any other
  if (body.let !== undefined || body.comment !== undefined) return decodeDocument(bytes);
  if (Array.isArray(body.pipeline))
    body.pipeline = body.pipeline.map((stage: unknown) =>
      stage instanceof Uint8Array ? decodeStage(stage, DESERIALIZE) : stage,
    );
  return body;
}

function readCString(buf: Buffer, offset: number, end: number): [string, number] {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated string');
  return [buf.toString('utf8', offset, zero), zero + 1];
}

/** Parses one complete message (header included). Throws `ProtocolError` on anything malformed. */
export function parseMessage(buf: Buffer): Request {
  const header = readHeader(buf);
  const end = buf.length;
  if (header.opCode === OP_MSG) return parseOpMsg(buf, header, end);
  if (header.opCode === OP_QUERY) return parseOpQuery(buf, header, end);
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}

function parseOpMsg(buf: Buffer, header: MessageHeader, total: number): Request {
  const flags = buf.readUInt32LE(16);
  if ((flags & ~KNOWN_MSG_FLAGS & 0xffff) !== 0) throw new ProtocolError('unknown required OP_MSG flag');
  const end = flags & MSG_CHECKSUM_PRESENT ? total - 4 : total;
  let offset = 20;
  let body: Doc | undefined;
  const sequences: Array<[string, Doc[]]> = [];
  while (offset < end) {
    const kind = buf.readUInt8(offset);
    offset += 1;
    if (kind === 0) {
      if (body) throw new ProtocolError('more than one body section');
      [body, offset] = readDocument(buf, offset, end, decodeBody);
    } else if (kind === 1) {
      if (offset + 4 > end) throw new ProtocolError('truncated section');
      const size = buf.readInt32LE(offset);
      const sectionEnd = offset + size;
      if (size < 5 || sectionEnd > end) throw new ProtocolError('invalid section length');
      let id: string;
      [id, offset] = readCString(buf, offset + 4, sectionEnd);
      const docs: Doc[] = [];
      while (offset < sectionEnd) {
        let d: Doc;
        [d, offset] = readDocument(buf, offset, sectionEnd);
        docs.push(d);
      }
      sequences.push([id, docs]);
    } else {
      throw new ProtocolError(`unknown section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body');
  for (const [id, docs] of sequences) body[id] = docs;
  return { header, kind: 'msg', command: body, moreToCome: (flags & MSG_MORE_TO_COME) !== 0 };
}

function parseOpQuery(buf: Buffer, header: MessageHeader, end: number): Request {
  let offset = 20;
  const [ns, afterNs] = readCString(buf, offset, end);
  offset = afterNs + 8; // numberToSkip, numberToReturn
  const [query] = readDocument(buf, offset, end);
  if (!ns.endsWith('.$cmd')) throw new ProtocolError('OP_QUERY is only supported for commands');
  const command = (query.$query && typeof query.$query === 'object' ? query.$query : query) as Doc;
  if (command.$db === undefined) command.$db = ns.slice(0, -'.$cmd'.length);
  return { header, kind: 'query', command, moreToCome: false };
}

let nextRequestId = 1;

function writeHeader(out: Buffer, length: number, responseTo: number, opCode: number): void {
  out.writeInt32LE(length, 0);
  out.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  out.writeInt32LE(responseTo, 8);
  out.writeInt32LE(opCode, 12);
}

export function serializeReply(req: Request, reply: Doc | CursorReply): Buffer {
  const body = reply instanceof CursorReply ? reply : BSON.serialize(reply);
  const prefixLength = req.kind === 'query' ? 20 : 5;
  const out = Buffer.allocUnsafe(16 + prefixLength + body.byteLength);
  writeHeader(out, out.length, req.header.requestId, req.kind === 'query' ? OP_REPLY : OP_MSG);
  if (req.kind === 'query') {
    out.writeInt32LE(0, 16); // responseFlags
    out.writeBigInt64LE(0n, 20); // cursorID
    out.writeInt32LE(0, 28); // startingFrom
    out.writeInt32LE(1, 32); // numberReturned
  } else {
    out.writeUInt32LE(0, 16); // flagBits
    out.writeUInt8(0, 20); // section kind 0
  }
  if (body instanceof CursorReply) body.writeTo(out, 16 + prefixLength);
  else out.set(body, 16 + prefixLength);
  return out;
}

export function toLong(v: bigint | number): Long {
  return typeof v === 'bigint' ? Long.fromBigInt(v) : Long.fromNumber(v);
}
