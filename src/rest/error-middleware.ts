import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
  isAppError,
  type AppError,
} from '../errors/index.js';
import { databaseRefusal } from '../database/database-errors.js';
import type { Logger } from '../logger.js';

interface HttpParserError {
  type?: string;
  status?: number;
}

function toAppError(err: unknown): AppError | undefined {
  if (isAppError(err)) return err;
  const refusal = databaseRefusal(err);
  if (refusal) return refusal;
  const parserError = err as HttpParserError;
  if (parserError?.type === 'entity.parse.failed') return new ValidationError('Invalid JSON in request body');
  if (parserError?.type === 'entity.too.large') return new PayloadTooLargeError();
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported')
    return new ValidationError('Unsupported request body encoding');
  return undefined;
}

/** Every error leaves as JSON in Strapi's shape; unexpected ones are a 500 without details, logged in full. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError) {
      res.status(appError.status).json(appError.toBody());
      return;
    }
    logger.error(
      { err, reqId: (req as { id?: unknown }).id, method: req.method, url: req.originalUrl },
      'unexpected error',
    );
    res.status(500).json(new InternalServerError().toBody());
  };
}

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json(new NotFoundError().toBody());
};

/** A known path with a method it does not serve: plain text 405, as Strapi (koa-router) answers. */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).type('text/plain').send('Method Not Allowed');
};
