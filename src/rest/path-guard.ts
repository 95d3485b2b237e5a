import type { RequestHandler } from 'express';
import { BadRequestError } from '../errors/index.js';

/**
 * Refuses a path that cannot be decoded (`/api/tags/%zz`) or that decodes to a NUL byte, with
 * Strapi's answers (400 `failed to decode` / `Malicious Path`), before any route decodes its
 * parameters. The query string is not concerned: qs keeps undecodable sequences as text.
 */
export const pathGuard: RequestHandler = (req, _res, next) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(req.path);
  } catch {
    next(new BadRequestError('failed to decode'));
    return;
  }
  next(decoded.includes('\0') ? new BadRequestError('Malicious Path') : undefined);
};
