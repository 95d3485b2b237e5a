import type { Request, RequestHandler } from 'express';
import { ConfigError } from '../../config/index.js';
import { RateLimitError } from '../../errors/index.js';
import { intervalMs } from './settings.js';

export interface RateLimitOptions {
  max: number;
  intervalMs: number;
}

const MIDDLEWARE = 'plugin::users-permissions.rateLimit';
const WHERE = 'config/middlewares or a route';

/**
 * The options of a `plugin::users-permissions.rateLimit` an app configured (`{ name, config }`):
 * its `max` and `interval` over the plugin's `ratelimit` config, as Strapi spreads the entry's
 * config last into koa2-ratelimit's options. Whether it limits at all is the plugin's
 * `ratelimit.enabled` alone, as in Strapi. Options of koa2-ratelimit that would put the request's
 * body into the key (`prefixKey`) or change the answer are not taken (docs/strapi-deviations.md).
 */
export function configuredRateLimit(base: RateLimitOptions, config: Record<string, unknown>): RateLimitOptions {
  const max = config.max ?? base.max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
    throw new ConfigError(WHERE, `${MIDDLEWARE} config.max`, 'must be a positive integer');
  const interval =
    config.interval === undefined
      ? base.intervalMs
      : intervalMs(WHERE, config.interval, `${MIDDLEWARE} config.interval`);
  return { max, intervalMs: interval };
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window limiter for the auth routes, keyed by route and client address only: nothing in
 * the request body takes part in the key, so varying an `email` field cannot reset it. In memory,
 * per process (a cluster of instances multiplies the allowance by the number of instances).
 */
export function rateLimit(options: RateLimitOptions): RequestHandler {
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
