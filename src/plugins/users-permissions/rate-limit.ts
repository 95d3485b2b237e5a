import type { Request, RequestHandler } from 'express';
import { RateLimitError } from '../../errors/index.js';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window limiter for the auth routes, keyed by route and client address only: nothing in
 * the request body takes part in the key, so varying an `email` field cannot reset it. In memory,
 * per process (a cluster of instances multiplies the allowance by the number of instances).
 */
export function rateLimit(options: { max: number; intervalMs: number }): RequestHandler {
  const windows = new Map<string, Window>();
  let lastSweep = Date.now();
  const key = (req: Request) =>
    `${req.baseUrl}${req.route?.path ?? req.path}|${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  return (req, _res, next) => {
    const now = Date.now();
    if (now - lastSweep > options.intervalMs) {
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      lastSweep = now;
    }
    const k = key(req);
    let window = windows.get(k);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + options.intervalMs };
      windows.set(k, window);
    }
    window.count += 1;
    if (window.count > options.max) {
      next(new RateLimitError());
      return;
    }
    next();
  };
}
