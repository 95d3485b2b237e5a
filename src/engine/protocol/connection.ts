import type { Socket } from 'node:net';
import { messageSplitter } from './framing.js';
import { OP_MSG, OP_QUERY, parseMessage, ProtocolError, type Request } from './wire.js';

/**
 * Splits a socket's byte stream into messages. Anything malformed or oversized destroys this
 * socket only; the server and other connections carry on.
 */
export function readMessages(
  socket: Socket,
  onRequest: (req: Request) => void,
  onProtocolError: (err: Error) => void,
): void {
  const split = messageSplitter(
    (message) => {
      let req: Request;
      try {
        const opCode = message.readInt32LE(12);
        if (opCode !== OP_MSG && opCode !== OP_QUERY) throw new ProtocolError(`unsupported opCode ${opCode}`);
        req = parseMessage(message);
      } catch (err) {
        fail(err instanceof Error ? err : new ProtocolError(String(err)));
        return false;
      }
      onRequest(req);
      return !socket.destroyed;
    },
    (length) => fail(new ProtocolError(`invalid message length ${length}`)),
  );
  socket.on('data', split);

  function fail(err: Error): void {
    onProtocolError(err);
    socket.destroy();
  }
}
