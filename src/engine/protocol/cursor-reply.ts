import { BSON, type Long } from 'bson';
import { RawReply } from './wire.js';

const ZERO = Buffer.from([0]);
const OK_ELEMENT = Buffer.from([0x01, ...Buffer.from('ok\0', 'latin1'), 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]); // ok: 1.0

/**
 * `{ cursor: { firstBatch | nextBatch: [...docs], id, ns }, ok: 1.0 }` around documents that are
 * already serialized (a batch is cut by their sizes, see cursors.ts), without serializing them a
 * second time: each is copied once, into the outgoing message.
 */
export function cursorReply(field: 'firstBatch' | 'nextBatch', docs: Uint8Array[], id: Long, ns: string): RawReply {
  const items: Uint8Array[] = [];
  let arrayLength = 4 + 1;
  docs.forEach((doc, i) => {
    const key = Buffer.from(`\x03${i}\0`, 'latin1');
    items.push(key, doc);
    arrayLength += key.length + doc.length;
  });
  const tail = BSON.serialize({ id, ns });
  const tailElements = tail.subarray(4, tail.length - 1);
  const arrayName = elementName(0x04, field);
  const cursorLength = 4 + arrayName.length + arrayLength + tailElements.length + 1;
  const cursorName = elementName(0x03, 'cursor');
  const bodyLength = 4 + cursorName.length + cursorLength + OK_ELEMENT.length + 1;
  return new RawReply([
    int32(bodyLength),
    cursorName,
    int32(cursorLength),
    arrayName,
    int32(arrayLength),
    ...items,
    ZERO,
    tailElements,
    ZERO,
    OK_ELEMENT,
    ZERO,
  ]);
}

function int32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeInt32LE(n, 0);
  return b;
}

/** An element's type byte and name (its value follows). */
function elementName(type: number, name: string): Buffer {
  return Buffer.concat([Buffer.from([type]), Buffer.from(`${name}\0`, 'utf8')]);
}
