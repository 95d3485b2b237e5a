import { connect, type Socket } from 'node:net';

/** The key under which Node's `fetch` (undici) keeps its dispatcher, as undici's `setGlobalDispatcher` sets it. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface ConnectOptions {
  hostname: string;
}
type Connector = (options: ConnectOptions, callback: (err: Error | null, socket: Socket | null) => void) => void;
type AgentClass = new (options: { connect: Connector }) => { close(): Promise<void> };

/**
 * Sends `fetch`'s connections to `hosts` (a provider's hard-coded API, `https://api.github.com`)
 * to a plain HTTP server on 127.0.0.1 instead, and refuses every other host: the external service
 * is replaced, nothing reaches the internet. Built as undici's MockAgent is installed, with an
 * Agent of Node's own fetch whose connector picks the socket. Returns the undo.
 */
export async function interceptHosts(hosts: string[], port: number): Promise<() => Promise<void>> {
  const store = globalThis as unknown as Record<symbol, unknown>;
  // the dispatcher exists once fetch has run
  if (!store[GLOBAL_DISPATCHER]) await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
  const previous = store[GLOBAL_DISPATCHER];
  if (!previous || typeof previous !== 'object') throw new Error("Node's fetch has no global dispatcher to replace");
  const Agent = previous.constructor as AgentClass;
  const agent = new Agent({
    connect({ hostname }, callback) {
      if (!hosts.includes(hostname)) {
        callback(new Error(`a test tried to reach ${hostname}`), null);
        return;
      }
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (err) => callback(err, null));
    },
  });
  store[GLOBAL_DISPATCHER] = agent;
  return async () => {
    store[GLOBAL_DISPATCHER] = previous;
    await agent.close();
  };
}
