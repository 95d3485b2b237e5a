/**
 * A file on its way through the upload service, in the shape Strapi 4.26's services pass around
 * (`formatFileInfo`'s record-to-be, then `filepath`/`getStream()`, `width`/`height`, `formats`,
 * `url`...): a plain object the app's code may read and change between the steps. These helpers
 * read it without trusting it.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ValidationError } from '../../errors/index.js';
import { isPlainObject } from '../../write/index.js';
import type { IncomingFile } from './multipart.js';

export type FileData = Record<string, unknown>;

export function asFileData(value: unknown, caller: string): FileData {
  if (!isPlainObject(value)) throw new ValidationError(`${caller}: the file must be an object`);
  return value;
}

export const textOf = (file: FileData, key: string): string | undefined =>
  typeof file[key] === 'string' ? file[key] : undefined;

export const numberOf = (file: FileData, key: string): number | null =>
  typeof file[key] === 'number' && Number.isFinite(file[key]) ? file[key] : null;

/** The file's size in bytes: `sizeInBytes`, else `size` (kilobytes, as Strapi's records hold it). */
export function bytesOf(file: FileData): number {
  return numberOf(file, 'sizeInBytes') ?? Math.round((numberOf(file, 'size') ?? 0) * 1000);
}

/** A fresh stream of the file's bytes (`getStream()`, else its `filepath`, else its `buffer`); null when it has none. */
export function streamOf(file: FileData): Readable | null {
  if (typeof file.getStream === 'function') {
    const stream: unknown = Reflect.apply(file.getStream, file, []);
    if (stream instanceof Readable) return stream;
  }
  const path = textOf(file, 'filepath');
  if (path !== undefined) return createReadStream(path);
  if (Buffer.isBuffer(file.buffer)) return Readable.from(file.buffer);
  return null;
}

export function workDirOf(file: FileData, caller: string): string {
  const dir = textOf(file, 'tmpWorkingDirectory');
  if (dir === undefined) throw new ValidationError(`${caller}: the file needs its tmpWorkingDirectory`);
  return dir;
}

/**
 * Gives the file a `filepath` (its bytes copied into its work directory when they came as a
 * `buffer` or a stream) and the size of what is there.
 */
export async function onDisk(file: FileData, caller: string): Promise<string> {
  let path = textOf(file, 'filepath');
  if (path === undefined) {
    const stream = streamOf(file);
    if (!stream) throw new ValidationError(`${caller}: the file needs its filepath, getStream() or buffer`);
    const copy = join(workDirOf(file, caller), `source-${basename(textOf(file, 'hash') ?? 'file')}`);
    await pipeline(stream, createWriteStream(copy));
    path = copy;
    file.filepath = copy;
    file.getStream = () => createReadStream(copy);
  }
  const { size } = await stat(path);
  file.sizeInBytes = size;
  file.size = Math.round((size / 1000) * 100) / 100;
  return path;
}

/**
 * A formidable file as koa-body gives it (Strapi 4.26: v1's `path`, `name`, `type`; v2's
 * `filepath`, `originalFilename`, `mimetype` too), as the upload checks read it.
 */
export function formidableFile(file: unknown): IncomingFile {
  if (!isPlainObject(file)) throw new ValidationError('upload: each file must be an object with its path');
  const text = (...keys: string[]) => keys.map((key) => file[key]).find((v): v is string => typeof v === 'string');
  const path = text('filepath', 'path');
  if (path === undefined) throw new ValidationError('upload: a file needs its path');
  return {
    field: 'files',
    path,
    filename: text('originalFilename', 'name') ?? 'file',
    declaredMime: text('mimetype', 'type') ?? 'application/octet-stream',
    size: typeof file.size === 'number' ? file.size : 0,
  };
}

/** A file the plugin's routes read, as Strapi's koa-body hands it to the upload service. */
export function asFormidable(file: IncomingFile): FileData {
  return { path: file.path, name: file.filename, type: file.declaredMime, size: file.size };
}
