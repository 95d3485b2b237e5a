import type { RequestHandler } from 'express';
import { ConfigError } from '../config/index.js';
import { ForbiddenError } from '../errors/index.js';
import type { MiddlewareFactory } from './types.js';

function patterns(file: string, key: string, value: unknown): RegExp[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new ConfigError(file, `strapi::ip.${key}`, 'must be an array of patterns');
  return (value as string[]).map((pattern) => new RegExp(pattern));
}

/**
 * `strapi::ip` (koa-ip): a caller's address must match a `whitelist` pattern when there is one and
 * no `blacklist` pattern; others get a 403. Patterns are regular expressions, unanchored.
 */
export const ip: MiddlewareFactory = (config, { config: service }) => {
  const file = service.middlewares.file;
  const whitelist = patterns(file, 'whitelist', config.whitelist);
  const blacklist = patterns(file, 'blacklist', config.blacklist);
  const handler: RequestHandler = (req, _res, next) => {
    const address = req.ip ?? req.socket.remoteAddress ?? '';
    const allowed =
      (whitelist === undefined || whitelist.some((p) => p.test(address))) &&
      !(blacklist ?? []).some((p) => p.test(address));
    next(allowed ? undefined : new ForbiddenError('Forbidden'));
  };
  return { handlers: [handler] };
};
