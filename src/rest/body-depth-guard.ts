import type { RequestHandler } from 'express';
import { checkBodyDepth } from '../operations/request-limits.js';

/** Refuses a JSON body nested too deeply before any route reads it. */
export const bodyDepthGuard: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  checkBodyDepth(body);
  next();
};
