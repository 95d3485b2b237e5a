import type { Socket } from 'node:net';
import { MAX_MESSAGE_SIZE, OP_MSG, OP_QUERY, parseMessage, ProtocolError, type Request } from './wire.js';

/**
 * Splits a socket's byte stream into messages. Anything malformed or oversized destroys this
 * socket only; the server and other connections carry on.
 */
export function readMessages(
  socket: Socket,
  onRequest: (req: Request) => void,
  onProtocolError: (err: Error) => void,
): void {
  let chunks: Buffer[] = [];
  let buffered = 0;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= 4) {
      const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      chunks = [head];
      const length = head.readInt32LE(0);
      if (length < 21 || length > MAX_MESSAGE_SIZE) {
        fail(new ProtocolError(`invalid message length ${length}`));
        return;
      }
      if (buffered < length) return;
      const message = head.subarray(0, length);
      const rest = head.subarray(length);
      chunks = rest.length ? [rest] : [];
      buffered = rest.length;
      let req: Request;
      try {
        const opCode = message.readInt32LE(12);
        if (opCode !== OP_MSG && opCode !== OP_QUERY) throw new ProtocolError(`unsupported opCode ${opCode}`);
        req = parseMessage(message);
      } catch (err) {
        fail(err instanceof Error ? err : new ProtocolError(String(err)));
        return;
      }
      onRequest(req);
      if (socket.destroyed) return;
    }
  });

  function fail(err: Error): void {
    chunks = [];
    buffered = 0;
    onProtocolError(err);
    socket.destroy();
  }
}
