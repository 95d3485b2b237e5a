import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call a webhook receiver got. */
export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** How the receiver answers a path: a status after an optional delay (`hang`: never). */
export interface PathBehaviour {
  status?: number;
  body?: string;
  delayMs?: number;
  hang?: boolean;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  calls: ReceivedCall[];
  /** the calls to `path` (and of `event`, when given) */
  callsTo(path: string, event?: string): ReceivedCall[];
  /** resolves once `count` calls to `path` (of `event`) arrived; rejects after `timeoutMs` */
  waitFor(path: string, event?: string, count?: number, timeoutMs?: number): Promise<ReceivedCall[]>;
  /** answers the calls a `hang` path holds (200), so no delivery waits for its timeout after a test */
  releaseHung(): void;
  /** how many calls to a `hang` path are held with their connection still open (not timed out by the caller) */
  heldOpen(path: string): number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records the webhook calls it gets. */
export async function startWebhookReceiver(behaviours: Record<string, PathBehaviour> = {}): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const listeners = new Set<() => void>();
  const hung = new Map<ServerResponse, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      calls.push({ path, headers: req.headers, body });
      for (const listener of listeners) listener();
      const behaviour = behaviours[path] ?? {};
      if (behaviour.hang) {
        hung.set(res, path);
        res.on('close', () => hung.delete(res));
        return;
      }
      setTimeout(() => {
        res.writeHead(behaviour.status ?? 200, { 'Content-Type': 'text/plain' });
        res.end(behaviour.body ?? 'ok');
      }, behaviour.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const callsTo = (path: string, event?: string) =>
    calls.filter((call) => call.path === path && (event === undefined || call.body.event === event));
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    calls,
    callsTo,
    waitFor(path, event, count = 1, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = callsTo(path, event);
          if (found.length < count) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${count} call(s) to ${path} ${event ?? ''} within ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    releaseHung() {
      for (const res of hung.keys()) res.end('ok');
      hung.clear();
    },
    heldOpen: (path) => [...hung.values()].filter((held) => held === path).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
