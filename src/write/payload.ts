import { ValidationError } from '../errors/index.js';

export type WriteData = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The `data` object of a REST write body; anything else is Strapi's 400. */
export function readDataPayload(body: unknown): WriteData {
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data)) throw new ValidationError('Missing "data" payload in the request body');
  return data;
}
