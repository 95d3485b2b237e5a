import type { Long } from 'bson';

const CURSOR = Buffer.from('\x03cursor\0', 'latin1');
const ID = Buffer.from('\x12id\0', 'latin1');
const NS = Buffer.from('\x02ns\0', 'latin1');
const OK = Buffer.from([0x01, ...Buffer.from('ok\0', 'latin1'), 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]); // ok: 1.0

/**
 * `{ cursor: { firstBatch | nextBatch: [...docs], id, ns }, ok: 1.0 }` around documents that are
 * already serialized (a batch is cut by their sizes, see cursors.ts): written straight into the
 * outgoing message, each document copied once.
 */
export class CursorReply {
  readonly byteLength: number;
  private readonly field: Buffer;
  private readonly ns: Buffer;
  private readonly arrayLength: number;
  private readonly cursorLength: number;

  constructor(
    field: 'firstBatch' | 'nextBatch',
    private readonly docs: Uint8Array[],
    private readonly id: Long,
    ns: string,
  ) {
    this.field = Buffer.from(`\x04${field}\0`, 'latin1');
    this.ns = Buffer.from(ns, 'utf8');
    let arrayLength = 4 + 1;
    for (let i = 0; i < docs.length; i++) arrayLength += 1 + digits(i) + 1 + (docs[i] as Uint8Array).length;
    this.arrayLength = arrayLength;
    const tail = ID.length + 8 + NS.length + 4 + this.ns.length + 1;
    this.cursorLength = 4 + this.field.length + arrayLength + tail + 1;
    this.byteLength = 4 + CURSOR.length + this.cursorLength + OK.length + 1;
  }

  /** Writes the reply at `offset` of `out` (which has byteLength bytes free there). */
  writeTo(out: Buffer, offset: number): void {
    let at = out.writeInt32LE(this.byteLength, offset);
    at += CURSOR.copy(out, at);
    at = out.writeInt32LE(this.cursorLength, at);
    at += this.field.copy(out, at);
    at = out.writeInt32LE(this.arrayLength, at);
    for (let i = 0; i < this.docs.length; i++) {
      out[at++] = 0x03;
      at += out.write(String(i), at, 'latin1');
      out[at++] = 0;
      out.set(this.docs[i] as Uint8Array, at);
      at += (this.docs[i] as Uint8Array).length;
    }
    out[at++] = 0;
    at += ID.copy(out, at);
    at = out.writeInt32LE(this.id.low, at);
    at = out.writeInt32LE(this.id.high, at);
    at += NS.copy(out, at);
    at = out.writeInt32LE(this.ns.length + 1, at);
    at += this.ns.copy(out, at);
    out[at++] = 0;
    out[at++] = 0;
    at += OK.copy(out, at);
    out[at] = 0;
  }
}

function digits(i: number): number {
  return i < 10 ? 1 : i < 100 ? 2 : String(i).length;
}
