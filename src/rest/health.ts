import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import { ServiceUnavailableError } from '../errors/index.js';

export const HEALTH_PATH = '/_health';

/** How long the database may take to answer a ping before the service reports itself unhealthy. */
export const HEALTH_PING_TIMEOUT_MS = 1_000;

/** Whether a request is a health check (load balancers poll it: the request log keeps it below info). */
export function isHealthCheck(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  const end = url.indexOf('?');
  return (end === -1 ? url : url.slice(0, end)) === HEALTH_PATH;
}

/**
 * `GET /_health`: 200 `{ status: 'ok' }` when the database answers a ping within the timeout, else
 * 503 in the error shape. Concurrent checks share one ping, so a database that hangs never
 * collects a queue of them.
 */
export function healthCheck(connection: Connection, timeoutMs = HEALTH_PING_TIMEOUT_MS): RequestHandler {
  let inFlight: Promise<boolean> | null = null;
  const ping = (): Promise<boolean> => {
    inFlight ??= pingDatabase(connection).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  return async (_req, res) => {
    if (await withTimeout(ping(), timeoutMs)) {
      res.json({ status: 'ok' });
      return;
    }
    res.status(503).json(new ServiceUnavailableError('Database unreachable').toBody());
  };
}

async function pingDatabase(connection: Connection): Promise<boolean> {
  try {
    const db = connection.db;
    if (!db) return false;
    await db.command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

/** The promise's value, or false once `ms` have passed. */
function withTimeout(promise: Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then((ok) => {
      clearTimeout(timer);
      resolve(ok);
    });
  });
}
