/**
 * Strapi 4.26's upload service's lower steps as seed scripts call them:
 * `formatFileInfo({ filename, type, size }, fileInfo, metas)`, the record-to-be of a file (name,
 * texts, `hash`, `ext`, `mime`, size in KB, `related` from `metas.ref/refId/field`), and
 * `uploadFileAndPersist(fileData)`, which stores such a file (its bytes from `filepath`,
 * `getStream()` or `buffer`) as the plugin's upload does. The stored record has a hash of the
 * service's making, as any upload here.
 */
import { createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ValidationError } from '../errors/index.js';
import {
  assertValidFilename,
  bytesToKbytes,
  fileExtension,
  fileHash,
  type FileInfo,
  type IncomingFile,
} from '../plugins/upload/index.js';
import { isPlainObject } from '../write/index.js';

type Data = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function formatFileInfo(
  file: { filename?: unknown; type?: unknown; size?: unknown },
  fileInfo: Data = {},
  metas: Data = {},
): Data {
  const filename = text(file.filename) ?? '';
  const mime = text(file.type) ?? 'application/octet-stream';
  assertValidFilename(filename);
  const ext = fileExtension(filename, mime);
  const name = (text(fileInfo.name) || filename).normalize();
  assertValidFilename(name);
  const size = typeof file.size === 'number' ? file.size : Number(file.size ?? 0);
  const entity: Data = {
    name,
    alternativeText: fileInfo.alternativeText,
    caption: fileInfo.caption,
    folder: fileInfo.folder,
    folderPath: '/',
    hash: fileHash(name, ext),
    ext,
    mime,
    size: bytesToKbytes(size),
    sizeInBytes: size,
  };
  if (metas.refId && metas.ref && metas.field)
    entity.related = [{ id: metas.refId, __type: metas.ref, __pivot: { field: metas.field } }];
  if (metas.path) entity.path = metas.path;
  if (metas.tmpWorkingDirectory) entity.tmpWorkingDirectory = metas.tmpWorkingDirectory;
  return entity;
}

/** Where the bytes of `fileData` are: its own file, else a copy written into `workDir`. */
async function bytesPath(fileData: Data, workDir: string): Promise<string> {
  // (`path` is not one: Strapi's formatFileInfo sets it to the provider's folder from `metas.path`)
  const filepath = text(fileData.filepath);
  if (filepath !== undefined) return filepath;
  const copy = join(workDir, `source-${basename(text(fileData.hash) ?? 'file')}`);
  if (Buffer.isBuffer(fileData.buffer)) {
    await writeFile(copy, fileData.buffer);
    return copy;
  }
  if (typeof fileData.getStream === 'function') {
    const stream: unknown = Reflect.apply(fileData.getStream, fileData, []);
    if (stream instanceof Readable) {
      await pipeline(stream, createWriteStream(copy));
      return copy;
    }
  }
  throw new ValidationError('uploadFileAndPersist: the file data needs its filepath, getStream() or buffer');
}

/** The file, its texts and the entry to attach it to (Strapi's `related`), as the plugin's upload takes them. */
export async function fileDataUpload(
  fileData: unknown,
  workDir: string,
): Promise<{ file: IncomingFile; info: FileInfo; attach: Data }> {
  if (!isPlainObject(fileData)) throw new ValidationError('uploadFileAndPersist: the file data must be an object');
  const path = await bytesPath(fileData, workDir);
  const [related] = Array.isArray(fileData.related) ? (fileData.related as unknown[]) : [];
  const link = isPlainObject(related) ? related : {};
  const pivot = isPlainObject(link.__pivot) ? link.__pivot : {};
  return {
    file: {
      field: 'files',
      path,
      filename: text(fileData.name) ?? 'file',
      declaredMime: text(fileData.mime) ?? 'application/octet-stream',
      size: (await stat(path)).size,
    },
    info: {
      name: text(fileData.name) ?? null,
      alternativeText: text(fileData.alternativeText) ?? null,
      caption: text(fileData.caption) ?? null,
    },
    attach: isPlainObject(related) ? { ref: link.__type, refId: link.id, field: pivot.field } : {},
  };
}
