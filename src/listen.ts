import { createServer, type RequestListener, type Server } from 'node:http';

/** Where the port and host are set, for the fix a message names. */
export interface ListenSettings {
  port: string;
  host: string;
}

const SERVICE_SETTINGS: ListenSettings = { port: '--port, PORT or server.port', host: '--host, HOST or server.host' };

/** Why a socket could not be opened, by Node's error code, and what to do about it. */
const REASONS: Record<string, (host: string, port: number, set: ListenSettings) => string> = {
  EADDRINUSE: (_host, port, set) => `port ${port} is in use: choose another with ${set.port}`,
  EACCES: (_host, port, set) => `port ${port} cannot be opened by this user: choose one above 1023 with ${set.port}`,
  EADDRNOTAVAIL: (host, _port, set) =>
    `host ${host} is not an address of this machine: choose one with ${set.host} (0.0.0.0: every address)`,
  ENOTFOUND: (host, _port, set) => `host ${host} cannot be resolved: give an address or a known name with ${set.host}`,
  EAI_AGAIN: (host, _port, set) =>
    `host ${host} cannot be resolved now (name service unavailable): give an address with ${set.host}`,
};

/** A socket error code that means the host or port cannot be listened on. */
export function isListenFailure(code: string): boolean {
  return Object.hasOwn(REASONS, code);
}

/** The service could not listen on its host and port; the message names both and the fix. */
export class ListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    cause: Error,
    settings: ListenSettings = SERVICE_SETTINGS,
  ) {
    const reason = code !== undefined && isListenFailure(code) ? REASONS[code]?.(host, port, settings) : cause.message;
    super(`cannot listen on ${host}:${port}: ${reason}`, { cause });
    this.name = 'ListenError';
  }
}

/**
 * An HTTP server listening on `host`:`port` (a new one for a request handler, or the one given).
 * Express 5's `app.listen` hands a failed listen to its callback, which reads as success; a plain
 * server's `error` event does not.
 */
export function listen(handler: RequestListener | Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = typeof handler === 'function' ? createServer(handler) : handler;
    const failed = (err: NodeJS.ErrnoException) => reject(new ListenError(host, port, err.code, err));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve(server);
    });
  });
}
