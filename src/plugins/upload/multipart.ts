/**
 * Streams a multipart/form-data request (busboy) to disk: each file part goes to its own file in
 * `directory` while its bytes are counted, so memory stays bounded whatever the size. Two limits,
 * as Strapi has them:
 * - `maxFileSize` (`strapi::body`'s formidable limit): the file bytes of the whole request; past it
 *   the parse stops at once and the answer is koa-body's 413 `FileTooBig`;
 * - `sizeLimit` (the upload plugin's): one file's bytes; such a file's partial copy is deleted and
 *   the rest of the body is read without being stored, to learn whether the request also exceeds
 *   `maxFileSize` (Strapi's body parser answers first), then the answer is the plugin's 413.
 * Either way, and when the client goes away mid-body, nothing stays on disk and the caller gets
 * the error before anything was stored. Shared by `POST /api/upload`, entry writes with files, the
 * app's own handlers and GraphQL multipart requests.
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
  /** largest file, in bytes (the upload plugin's `sizeLimit`); none when absent */
  sizeLimit?: number;
  /** the file bytes of the whole request (`strapi::body`'s `formidable.maxFileSize`); none when absent */
  maxFileSize?: number;
  /** an empty temporary directory owned by the request */
  directory: string;
  /** the name a file over `sizeLimit` goes by in the 413, once the whole body is read (default: as sent) */
  nameOf?: (file: IncomingFile, body: MultipartBody) => string;
}

const FIELD_SIZE_LIMIT = 1024 * 1024;

/**
 * Writes `stream` to `path`; `done` settles once the file is closed, also after `abort()` (an
 * aborted write's own error, such as a chunk arriving after the abort, is no failure).
 */
function writeTo(stream: Readable, path: string): { done: Promise<void>; abort(): void } {
  const file = createWriteStream(path);
  let aborted = false;
  const done = new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => (aborted ? resolve() : reject(err));
    file.on('close', resolve);
    file.on('error', failed);
    stream.on('error', (err) => {
      file.destroy();
      failed(err);
    });
  });
  stream.pipe(file);
  return {
    done,
    abort: () => {
      if (aborted) return;
      aborted = true;
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

/** Multipart requests `strapi::body` leaves unread (its `multipart: false`). */
const unreadBodies = new WeakSet<IncomingMessage>();

/**
 * Leaves a multipart request's body unread, as koa-body does with `multipart: false`: every reader
 * (a core create or update, the upload route, the app's handlers) gets no field and no file.
 */
export function leaveMultipartUnread(req: IncomingMessage): void {
  unreadBodies.add(req);
  readBodies.set(req, Promise.resolve({ fields: [], files: [] }));
}

export function isMultipartLeftUnread(req: IncomingMessage): boolean {
  return unreadBodies.has(req);
}

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
  const { sizeLimit = Infinity, maxFileSize = Infinity } = options;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // the raw name, so that a name holding a path is refused rather than silently shortened
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { fieldSize: FIELD_SIZE_LIMIT },
      });
    } catch {
      reject(new ValidationError('Invalid multipart body'));
      return;
    }
    const body: MultipartBody = { fields: [], files: [] };
    const writes: Array<ReturnType<typeof writeTo>> = [];
    let failed = false;
    /** the file bytes of the request so far, every file together */
    let fileBytes = 0;
    /** the first file over `sizeLimit`: answered once the whole body is read */
    let oversized: IncomingFile | undefined;

    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // keep reading (and dropping) the rest of the body, so the client gets the answer
      req.resume();
      // a part's stream may still hold bytes the parser gave it: every write stops
      for (const write of writes) write.abort();
      Promise.allSettled(writes.map((write) => write.done))
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
      // past a file over the limit, the rest is only counted
      const write = oversized ? null : writeTo(stream, file.path);
      if (write) {
        writes.push(write);
        write.done.catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
      } else stream.resume();
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        fileBytes += chunk.length;
        // koa-body's formidable error, which Strapi's body middleware answers so
        if (fileBytes > maxFileSize) fail(new PayloadTooLargeError('FileTooBig'));
        else if (file.size > sizeLimit && !oversized) {
          oversized = file;
          write?.abort();
        }
      });
    });
    parser.on('error', () => fail(new ValidationError('Invalid multipart body')));
    parser.on('close', () => {
      if (failed) return;
      if (oversized) {
        const name = options.nameOf?.(oversized, body) ?? oversized.filename;
        fail(new PayloadTooLargeError(`${name} exceeds size limit of ${bytesToHumanReadable(sizeLimit)}.`));
        return;
      }
      Promise.all(writes.map((write) => write.done)).then(() => {
        if (!failed) resolve(body);
      }, reject);
    });
    req.on('error', (err) => fail(err));
    // the client went away before the end of the body: what was written goes
    req.on('close', () => {
      if (!req.complete) fail(new ValidationError('The request was aborted'));
    });
    req.pipe(parser);
  });
}
