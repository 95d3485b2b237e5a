/**
 * GraphQL multipart requests (graphql-multipart-request-spec): `operations` (the JSON request, or
 * a batch of them as Strapi's graphql-upload reads it), `map` (file field → paths in `variables`,
 * `0.variables.file` in a batch), then the files. The files are streamed to disk by the
 * upload plugin's parser (same size limit, same clean-up as `POST /api/upload`) and each mapped
 * variable becomes an `UploadValue` the upload mutations read. Implemented here rather than with
 * `graphql-upload`: its current major needs graphql 17 and Node 22, the previous one Express 4, and
 * sharing the REST parser keeps one streaming path with one limit.
 */
import type { IncomingMessage } from 'node:http';
import { ValidationError } from '../../errors/index.js';
import { checkBodyDepth } from '../../operations/request-limits.js';
import { readMultipart, type IncomingFile, type MultipartOptions } from '../upload/index.js';
import { isRecord } from './values.js';

/** A file variable of a multipart request, already on disk. */
export class UploadValue {
  constructor(readonly file: IncomingFile) {}
}

const invalid = (message: string) => new ValidationError(`Invalid multipart GraphQL request: ${message}`);

function parseJsonField(fields: Array<{ name: string; value: string }>, name: string): unknown {
  const field = fields.find((f) => f.name === name);
  if (!field) throw invalid(`the "${name}" field is missing`);
  let value: unknown;
  try {
    value = JSON.parse(field.value);
  } catch {
    throw invalid(`the "${name}" field is not JSON`);
  }
  checkBodyDepth(value);
  return value;
}

/**
 * Puts `value` at `path` (`variables.files.1`, in a batch `0.variables.files.1`) inside
 * `operations`; only under an operation's `variables`.
 */
function place(operations: Operations, path: string, value: UploadValue): void {
  const keys = path.split('.');
  const variablesAt = Array.isArray(operations) ? 1 : 0;
  if (keys[variablesAt] !== 'variables' || keys.length < variablesAt + 2)
    throw invalid(
      `map path "${path}" is not under ${variablesAt ? "an operation's variables (0.variables...)" : 'variables'}`,
    );
  let holder: unknown = operations;
  for (const key of keys.slice(0, -1)) {
    const next: unknown = Array.isArray(holder) ? holder[Number(key)] : isRecord(holder) ? holder[key] : undefined;
    if (next === undefined || next === null || typeof next !== 'object')
      throw invalid(`map path "${path}" names no variable`);
    holder = next;
  }
  const last = keys.at(-1) ?? '';
  if (Array.isArray(holder)) holder[Number(last)] = value;
  else if (isRecord(holder)) holder[last] = value;
}

/** One GraphQL request, or a batch of them. */
type Operations = Record<string, unknown> | unknown[];

/** The GraphQL request (or batch) of a multipart body, its files placed in its variables. */
export async function readGraphQLMultipart(req: IncomingMessage, options: MultipartOptions): Promise<Operations> {
  const body = await readMultipart(req, options);
  const operation = parseJsonField(body.fields, 'operations');
  if (!isRecord(operation) && !Array.isArray(operation))
    throw invalid('"operations" must be a GraphQL request object or an array of them');
  const map = parseJsonField(body.fields, 'map');
  if (!isRecord(map)) throw invalid('"map" must be an object');
  for (const [key, paths] of Object.entries(map)) {
    const file = body.files.find((f) => f.field === key);
    if (!file) throw invalid(`no file for map entry "${key}"`);
    if (!Array.isArray(paths)) throw invalid(`map entry "${key}" must be an array of paths`);
    for (const path of paths) place(operation, String(path), new UploadValue(file));
  }
  return operation;
}
