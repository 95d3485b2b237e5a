/**
 * The bytes of files one multipart request may carry: `strapi::body`'s
 * `formidable.maxFileSize` in `config/middlewares` (koa-body hands it to formidable 1, which counts
 * the file bytes of the whole request, every file together, and stops the parse past it).
 * Default: formidable's 200 MiB.
 */
import { ConfigError } from './config-error.js';
import type { ServiceConfig } from './types.js';

export const DEFAULT_BODY_FILE_LIMIT = 200 * 1024 * 1024;

export function bodyFileLimit(config: Pick<ServiceConfig, 'middlewares'>): number {
  const body = config.middlewares.entries.find((entry) => entry.name === 'strapi::body');
  const formidable = body?.config.formidable;
  if (formidable === undefined) return DEFAULT_BODY_FILE_LIMIT;
  const invalid = (key: string, message: string) =>
    new ConfigError(config.middlewares.file, `strapi::body.config.${key}`, message);
  if (formidable === null || typeof formidable !== 'object' || Array.isArray(formidable))
    throw invalid('formidable', 'must be an object');
  const maxFileSize = (formidable as Record<string, unknown>).maxFileSize;
  if (maxFileSize === undefined) return DEFAULT_BODY_FILE_LIMIT;
  if (typeof maxFileSize !== 'number' || !Number.isSafeInteger(maxFileSize) || maxFileSize <= 0)
    throw invalid('formidable.maxFileSize', `must be a positive integer (bytes), got ${JSON.stringify(maxFileSize)}`);
  return maxFileSize;
}
