/**
 * Requests that carry no usable GraphQL operation, answered as Strapi v4's Apollo Server 3 answers
 * them (before any parsing): a plain-text 400 for a missing body or a GET without parameters, a
 * JSON 400 for a missing or empty `query`; in a batch, an operation without a query is answered in
 * its place. A mutation sent by GET is Apollo's JSON 405 too, another method its plain-text 405.
 */
import type { Request } from 'express';
import { ValidationError } from '../../errors/index.js';
import { isRecord } from './values.js';

export interface ShapeError {
  status: 400 | 405;
  contentType: string;
  body: string;
}

const TEXT = 'text/plain; charset=utf-8';
const NOT_TEXT = 'GraphQL queries must be strings.';
const EMPTY_QUERY_ANSWER = {
  errors: [
    {
      message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    },
  ],
};

export function requestShapeError(req: Request): ShapeError | null {
  if (req.method === 'GET') {
    if (Object.keys(req.query).length === 0) return text('GET query missing.');
    const query: unknown = req.query.query;
    if (query === undefined || query === '') return emptyQuery();
    // `query` given twice (a list) or in brackets (an object)
    return typeof query === 'string' ? null : text(NOT_TEXT);
  }
  if (req.method !== 'POST')
    return { status: 405, contentType: TEXT, body: 'Apollo Server supports only GET/POST requests.' };
  const body: unknown = req.body;
  // a body that was not parsed as JSON (none, or another Content-Type) is `undefined`
  if (body === null || typeof body !== 'object' || Object.keys(body).length === 0)
    return text('POST body missing, invalid Content-Type, or JSON object has no keys.');
  if (Array.isArray(body)) return batchShapeError(body);
  if (!isRecord(body)) return null;
  if (missingQuery(body)) return emptyQuery();
  return typeof body.query === 'string' ? null : text(NOT_TEXT);
}

/**
 * A batch (an array of operations) is refused whole only for a query that is no string; Apollo
 * fails on a `null` operation with a 500, a 400 here.
 */
function batchShapeError(operations: unknown[]): ShapeError | null {
  if (operations.some((operation) => operation === null))
    return {
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify(new ValidationError('Every operation of a batch must be an object').toBody()),
    };
  const notText = operations.some(
    (operation) => isRecord(operation) && !missingQuery(operation) && typeof operation.query !== 'string',
  );
  return notText ? text(NOT_TEXT) : null;
}

/** Apollo Server 3's answer (405, `Allow: POST`) to a mutation sent by GET. */
export const GET_MUTATION_ANSWER = {
  errors: [{ message: 'GET supports only query operation', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
};

function missingQuery(operation: Record<string, unknown>): boolean {
  return operation.query === undefined || operation.query === null || operation.query === '';
}

/** The answer to an operation of a batch that carries no query (Apollo answers it in its place), or null. */
export function missingQueryAnswer(operation: unknown): unknown {
  return !isRecord(operation) || missingQuery(operation) ? EMPTY_QUERY_ANSWER : null;
}

function text(message: string): ShapeError {
  return { status: 400, contentType: TEXT, body: message };
}

function emptyQuery(): ShapeError {
  return { status: 400, contentType: 'application/json', body: JSON.stringify(EMPTY_QUERY_ANSWER) };
}
