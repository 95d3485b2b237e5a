import { MAX_MESSAGE_SIZE } from './wire.js';

/**
 * Splits a byte stream into wire-protocol messages (each begins with its length): the function
 * returned takes each chunk as it arrives and calls `onMessage` with every whole message, until
 * `onMessage` answers `false` (the stream is done with). A length no message can have goes to
 * `onInvalid` and nothing after it is read.
 */
export function messageSplitter(
  onMessage: (message: Buffer) => boolean,
  onInvalid: (length: number) => void,
): (chunk: Buffer) => void {
  let chunks: Buffer[] = [];
  let buffered = 0;
  let stopped = false;
  return (chunk) => {
    if (stopped) return;
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= 4) {
      const head = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      chunks = [head];
      const length = head.readInt32LE(0);
      if (length < 21 || length > MAX_MESSAGE_SIZE) {
        stopped = true;
        chunks = [];
        buffered = 0;
        onInvalid(length);
        return;
      }
      if (buffered < length) return;
      const message = head.subarray(0, length);
      const rest = head.subarray(length);
      chunks = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      if (!onMessage(message)) {
        stopped = true;
        return;
      }
    }
  };
}
