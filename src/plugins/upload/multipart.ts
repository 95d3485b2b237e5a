/**
 * Streams a multipart/form-data request (busboy) to disk: each file part goes to its own file in
 * `directory` while its bytes are counted. A file over `sizeLimit` stops the parse at once: its
 * partial file is deleted, the rest of the body is discarded unread-into-storage, and the caller
 * gets a 413 before anything was stored. Shared by `POST /api/upload` and GraphQL multipart requests.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { bytesToHumanReadable } from './sizes.js';

export interface IncomingFile {
  /** the form field (`files`, or the GraphQL map key) */
  field: string;
  /** as the client sent it (checked later: it may hold anything) */
  filename: string;
  /** the part's Content-Type, as claimed by the client */
  declaredMime: string;
  /** where its bytes are */
  path: string;
  /** in bytes */
  size: number;
}

export interface MultipartBody {
  /** text fields in arrival order, several values per name possible */
  fields: Array<{ name: string; value: string }>;
  files: IncomingFile[];
}

export interface MultipartOptions {
  sizeLimit: number;
  /** an empty temporary directory owned by the request */
  directory: string;
}

const FIELD_SIZE_LIMIT = 1024 * 1024;

/** Writes `stream` to `path`; `done` settles once the file is closed, also after `abort()`. */
function writeTo(stream: Readable, path: string): { done: Promise<void>; abort(): void } {
  const file = createWriteStream(path);
  const done = new Promise<void>((resolve, reject) => {
    file.on('close', resolve);
    file.on('error', reject);
    stream.on('error', (err) => {
      file.destroy();
      reject(err);
    });
  });
  stream.pipe(file);
  return {
    done,
    abort: () => {
      stream.unpipe(file);
      stream.resume();
      file.destroy();
    },
  };
}

/** Values by name, as koa-body gives a form's fields: a name sent several times holds an array. */
export function byName<T>(pairs: Iterable<readonly [string, T]>): Record<string, T | T[]> {
  const out: Record<string, T | T[]> = {};
  for (const [name, value] of pairs) {
    const previous = out[name];
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
}

/** A request's body is read once: who reads it again (a plugin route behind the app's route) gets the same files. */
const readBodies = new WeakMap<IncomingMessage, Promise<MultipartBody>>();

/** The request's multipart body, its files written under `options.directory` (by the first reader). */
export function readMultipart(req: IncomingMessage, options: MultipartOptions): Promise<MultipartBody> {
  let body = readBodies.get(req);
  if (!body) {
    body = readMultipartOnce(req, options);
    readBodies.set(req, body);
  }
  return body;
}

function readMultipartOnce(req: IncomingMessage, options: MultipartOptions): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // the raw name, so that a name holding a path is refused rather than silently shortened
        preservePath: true,
        defParamCharset: 'utf8',
        // busboy reports a file that reaches its limit; one of exactly `sizeLimit` bytes is allowed
        limits: { fileSize: options.sizeLimit + 1, fieldSize: FIELD_SIZE_LIMIT },
      });
    } catch {
      reject(new ValidationError('Invalid multipart body'));
      return;
    }
    const body: MultipartBody = { fields: [], files: [] };
    const writes: Promise<void>[] = [];
    let failed = false;

    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // keep reading (and dropping) the rest of the body, so the client gets the answer
      req.resume();
      Promise.allSettled(writes)
        .then(() => Promise.all(body.files.map((f) => rm(f.path, { force: true }))))
        .then(() => reject(error), reject);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new PayloadTooLargeError(`The field ${name} is too large`));
      else body.fields.push({ name, value });
    });
    parser.on('file', (field, stream, info) => {
      // an empty file input of a form: no name, no bytes
      if (failed || info.filename === undefined || info.filename === '') {
        stream.resume();
        return;
      }
      const file: IncomingFile = {
        field,
        filename: info.filename,
        declaredMime: info.mimeType,
        path: join(options.directory, String(body.files.length)),
        size: 0,
      };
      body.files.push(file);
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
      });
      const write = writeTo(stream, file.path);
      stream.on('limit', () => {
        write.abort();
        fail(
          new PayloadTooLargeError(
            `${file.filename} exceeds size limit of ${bytesToHumanReadable(options.sizeLimit)}.`,
          ),
        );
      });
      writes.push(
        write.done.catch((err: unknown) => {
          fail(err instanceof Error ? err : new Error(String(err)));
        }),
      );
    });
    parser.on('error', () => fail(new ValidationError('Invalid multipart body')));
    parser.on('close', () => {
      if (failed) return;
      Promise.all(writes).then(() => {
        if (!failed) resolve(body);
      }, reject);
    });
    req.on('error', (err) => fail(err));
    req.pipe(parser);
  });
}
