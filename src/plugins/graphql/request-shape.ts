/**
 * Requests that carry no usable GraphQL operation, answered as Strapi v4's Apollo Server 3 answers
 * them (before any parsing): a plain-text 400 for a missing body or query string, a JSON 400 for
 * an empty `query`.
 */
import type { Request } from 'express';
import { isRecord } from './values.js';

export interface ShapeError {
  status: 400;
  contentType: string;
  body: string;
}

const TEXT = 'text/plain; charset=utf-8';
const EMPTY_QUERY = 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.';

export function requestShapeError(req: Request): ShapeError | null {
  if (req.method === 'GET') {
    const query: unknown = req.query.query;
    if (query === undefined) return text('GET query missing.');
    return query === '' ? emptyQuery() : null;
  }
  if (req.method !== 'POST') return null;
  const body: unknown = req.body;
  // a body that was not parsed as JSON (none, or another Content-Type) is `undefined`
  if (body === null || typeof body !== 'object' || Object.keys(body).length === 0)
    return text('POST body missing, invalid Content-Type, or JSON object has no keys.');
  if (!isRecord(body)) return null;
  const query = body.query;
  if (query === undefined || query === null || query === '') return emptyQuery();
  return typeof query === 'string' ? null : text('GraphQL queries must be strings.');
}

function text(message: string): ShapeError {
  return { status: 400, contentType: TEXT, body: message };
}

function emptyQuery(): ShapeError {
  return {
    status: 400,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ message: EMPTY_QUERY, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }),
  };
}
