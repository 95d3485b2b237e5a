import express from 'express';
import { isAppMiddleware } from './custom.js';
import { noteBodyRead } from './koa-context.js';
import type { MiddlewareFactory } from './types.js';

type Limit = string | number;

function limit(value: unknown, fallback: Limit): Limit {
  return typeof value === 'string' || typeof value === 'number' ? value : fallback;
}

/**
 * `strapi::body`: JSON, url-encoded forms and text bodies, with Strapi's (koa-body's) limits
 * `jsonLimit` (1mb), `formLimit` (56kb), `textLimit` (56kb) and its switches `json`, `urlencoded`,
 * `text`. Multipart bodies are left to the routes that take files.
 */
export const body: MiddlewareFactory = (config, { config: service }) => {
  const handlers = [];
  if (config.json !== false)
    handlers.push(
      express.json({
        limit: limit(config.jsonLimit, '1mb'),
        // koa-body's strict mode: a body that is no object or array is a 400
        strict: true,
        type: ['application/json', 'application/*+json', 'application/csp-report'],
      }),
    );
  if (config.urlencoded !== false)
    handlers.push(express.urlencoded({ extended: true, limit: limit(config.formLimit, '56kb') }));
  if (config.text !== false) handlers.push(express.text({ limit: limit(config.textLimit, '56kb'), type: 'text/*' }));
  // the app's middlewares after this one find `ctx.request.body` as koa-body leaves it: `{}` at least
  if (service.middlewares.entries.some(isAppMiddleware)) handlers.push(noteBodyRead);
  return { handlers };
};
