/**
 * The upload plugin's operations, shared by its REST routes and the GraphQL upload mutations:
 * upload (validate every file → process images in the request's work directory → store each file
 * and its formats through the provider → create its record → attach), update the info, replace
 * the bytes, remove, list and read. Nothing is stored until every file of the request is valid.
 */
import { createReadStream } from 'node:fs';
import type { RequestAuth } from '../../access/ability.js';
import { UPLOAD_FILE_UID, type ContentType } from '../../content-types/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { OperationContext, RawQuery } from '../../operations/index.js';
import { readEntries, readEntry, type PlainEntry } from '../../query/index.js';
import { parseFields } from '../../query/parse/fields.js';
import { populatedNames } from '../../query/parse/populate.js';
import type { ServiceContext } from '../../service-context.js';
import {
  createEntry,
  deleteEntry,
  entries,
  loadEntry,
  updateEntry,
  withLease,
  withLifecycles,
  type StoredEntry,
} from '../../write/index.js';
import { assertAccepts, attachFiles, resolveAttachTarget, type AttachRequest } from './attach.js';
import { checkedMimeType } from './content-type.js';
import type { UploadSettings } from './config.js';
import type { FileInfo } from './file-info.js';
import { assertValidFilename, fileExtension, fileHash } from './file-names.js';
import { prepareImage, type ImageVariant } from './images.js';
import { relatedOfFiles } from './related.js';
import type { IncomingFile } from './multipart.js';
import type { ProviderFile, UploadProvider } from './provider.js';
import { bytesToKbytes } from './sizes.js';

export interface UploadRuntime {
  settings: UploadSettings;
  provider: UploadProvider;
}

/** A valid upload, processed in the work directory, not stored yet. */
interface PreparedFile {
  name: string;
  alternativeText: string | null;
  caption: string | null;
  hash: string;
  ext: string;
  mime: string;
  path: string;
  /** bytes */
  size: number;
  width: number | null;
  height: number | null;
  variants: ImageVariant[];
}

/** A format as Strapi stores it in `formats` (key order as Strapi's). */
interface StoredFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  size: number;
  sizeInBytes: number;
  url: string;
  /** what the provider keeps for it (absent when nothing) */
  provider_metadata?: Record<string, unknown>;
}

const notFound = () => new NotFoundError('Entity not found');

function fileContentType(ctx: ServiceContext): ContentType {
  const contentType = ctx.registry.contentType(UPLOAD_FILE_UID);
  if (!contentType) throw new Error('the upload plugin content-type is not registered');
  return contentType;
}

async function prepareFile(
  rt: UploadRuntime,
  incoming: IncomingFile,
  info: FileInfo,
  workDir: string,
): Promise<PreparedFile> {
  assertValidFilename(incoming.filename);
  const mime = await checkedMimeType(incoming);
  const ext = fileExtension(incoming.filename, mime);
  const name = (info.name || incoming.filename).normalize();
  assertValidFilename(name);
  const hash = fileHash(name, ext);
  const image = await prepareImage({ path: incoming.path, size: incoming.size, mime, hash }, rt.settings, workDir);
  return {
    name,
    alternativeText: info.alternativeText ?? null,
    caption: info.caption ?? null,
    hash,
    ext,
    mime,
    path: image?.path ?? incoming.path,
    size: image?.size ?? incoming.size,
    width: image?.width ?? null,
    height: image?.height ?? null,
    variants: image?.variants ?? [],
  };
}

/** The stored file and its formats, as provider files (for deletion). */
function storedParts(record: Record<string, unknown>): ProviderFile[] {
  const parts: ProviderFile[] = [];
  const asPart = (value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    const stored = value as Record<string, unknown>;
    const { hash, ext, url, provider_metadata } = stored;
    if (typeof hash === 'string' && typeof ext === 'string' && typeof url === 'string')
      parts.push({ hash, ext, url, providerMetadata: provider_metadata ?? null, stored });
  };
  const { _id, ...fields } = record;
  asPart(_id === undefined ? fields : { id: _id, ...fields });
  if (record.formats !== null && typeof record.formats === 'object') Object.values(record.formats).forEach(asPart);
  return parts;
}

/**
 * Stores the file and its formats (`keep`: the hash and extension to store under, when replacing)
 * and answers the record's attributes; on failure nothing stays stored.
 */
async function store(
  rt: UploadRuntime,
  file: PreparedFile,
  keep?: { hash: string; ext: string },
): Promise<Record<string, unknown>> {
  const hash = keep?.hash ?? file.hash;
  const ext = keep?.ext ?? file.ext;
  const stored: ProviderFile[] = [];
  const put = async (
    part: { hash: string; path: string; size: number; width: number | null; height: number | null },
    format?: string,
  ) => {
    const name = format === undefined ? file.name : `${format}_${file.name}`;
    const result = await rt.provider.upload({
      hash: part.hash,
      ext,
      mime: file.mime,
      size: part.size,
      stream: () => createReadStream(part.path),
      name,
      width: part.width,
      height: part.height,
      ...(format === undefined ? { alternativeText: file.alternativeText, caption: file.caption } : { format }),
    });
    stored.push(...storedParts({ hash: part.hash, ext, url: result.url, provider_metadata: result.providerMetadata }));
    return result;
  };
  try {
    const original = await put({ hash, path: file.path, size: file.size, width: file.width, height: file.height });
    let formats: Record<string, StoredFormat> | null = null;
    for (const variant of file.variants) {
      const variantHash = `${variant.key}_${hash}`;
      const result = await put({ ...variant, hash: variantHash }, variant.key);
      formats = {
        ...(formats ?? {}),
        [variant.key]: {
          name: `${variant.key}_${file.name}`,
          hash: variantHash,
          ext,
          mime: file.mime,
          path: null,
          width: variant.width,
          height: variant.height,
          size: bytesToKbytes(variant.size),
          sizeInBytes: variant.size,
          url: result.url,
          ...(result.providerMetadata === null ? {} : { provider_metadata: result.providerMetadata }),
        },
      };
    }
    return {
      name: file.name,
      alternativeText: file.alternativeText,
      caption: file.caption,
      width: file.width,
      height: file.height,
      formats,
      hash,
      ext,
      mime: file.mime,
      size: bytesToKbytes(file.size),
      url: original.url,
      previewUrl: original.previewUrl ?? null,
      provider: rt.provider.name,
      provider_metadata: original.providerMetadata,
    };
  } catch (err) {
    await Promise.allSettled(stored.map((part) => rt.provider.delete(part)));
    throw err;
  }
}

/** Removes the bytes of a file and its formats from the provider (not its record). */
export async function deleteStored(rt: UploadRuntime, record: Record<string, unknown>): Promise<void> {
  if (record.provider !== rt.provider.name) return;
  await Promise.all(storedParts(record).map((part) => rt.provider.delete(part)));
}

async function readFile(ctx: OperationContext, id: number): Promise<PlainEntry> {
  const file = await readEntry(ctx, UPLOAD_FILE_UID, { _id: id }, {}, { style: 'plain' });
  if (!file) throw notFound();
  return file;
}

/** `POST /api/upload` with files: one record per file, in the order sent. */
export async function uploadFiles(
  rt: UploadRuntime,
  ctx: OperationContext,
  auth: RequestAuth,
  upload: { files: IncomingFile[]; infos: FileInfo[]; attach: AttachRequest | null; workDir: string },
): Promise<PlainEntry[]> {
  if (upload.files.length === 0) throw new ValidationError('Files are empty');
  const target = upload.attach ? await resolveAttachTarget(ctx, auth, upload.attach) : null;
  const prepared: PreparedFile[] = [];
  for (const [i, file] of upload.files.entries())
    prepared.push(await prepareFile(rt, file, upload.infos[i] ?? {}, upload.workDir));
  if (target) assertAccepts(target, prepared);

  const contentType = fileContentType(ctx);
  const ids: number[] = [];
  try {
    for (const file of prepared) {
      const data = await store(rt, file);
      try {
        ids.push(await createEntry(ctx, contentType, data));
      } catch (err) {
        await deleteStored(rt, data);
        throw err;
      }
    }
    // the entry (or component) deleted since it was checked: nothing of the upload stays
    if (target && !(await attachFiles(ctx, target, ids)))
      throw new ValidationError(`${target.component ?? target.contentType.uid} ${target.refId} does not exist`);
  } catch (err) {
    for (const id of ids) await removeFileById(rt, ctx, id).catch(() => undefined);
    throw err;
  }
  const files = await Promise.all(ids.map((id) => readFile(ctx, id)));
  for (const file of files) ctx.events?.media('media.create', file);
  return files;
}

/**
 * What Strapi's upload service emits after it changed a file: its entity service's `entry.update`
 * (model `file`), then `media.update`.
 */
function emitFileUpdate(ctx: ServiceContext, file: PlainEntry): void {
  ctx.events?.entry('entry.update', UPLOAD_FILE_UID, file);
  ctx.events?.media('media.update', file);
}

/** `POST /api/upload?id=` without a file: name, alternativeText, caption (null or absent: unchanged). */
export async function updateFileInfo(ctx: OperationContext, id: string, info: FileInfo): Promise<PlainEntry> {
  const contentType = fileContentType(ctx);
  const record = await loadEntry(ctx, contentType, id).catch(() => {
    throw notFound();
  });
  const data: Record<string, unknown> = {};
  for (const key of ['name', 'alternativeText', 'caption'] as const) {
    if (info[key] !== undefined && info[key] !== null) data[key] = info[key];
  }
  await updateEntry(ctx, contentType, record, data);
  const updated = await readFile(ctx, record._id);
  emitFileUpdate(ctx, updated);
  return updated;
}

/** `POST /api/upload?id=` with one file: new bytes under the same hash and extension (the URL stays). */
export async function replaceFile(
  rt: UploadRuntime,
  ctx: OperationContext,
  id: string,
  upload: { files: IncomingFile[]; info: FileInfo; workDir: string },
): Promise<PlainEntry> {
  if (upload.files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
  const [incoming] = upload.files;
  if (!incoming) throw new ValidationError('Files are empty');
  const contentType = fileContentType(ctx);
  const load = () =>
    loadEntry(ctx, contentType, id).catch(() => {
      throw notFound();
    });
  const { _id } = await load();
  const file = await prepareFile(rt, incoming, upload.info, upload.workDir);
  // the old bytes go and the new ones take their name: one replacement (or deletion) at a time
  await withLease(ctx.models, UPLOAD_FILE_UID, _id, notFound, async () => {
    const record = await load();
    await deleteStored(rt, record);
    const data = await store(rt, file, { hash: String(record.hash), ext: String(record.ext) });
    if (upload.info.alternativeText === undefined) delete data.alternativeText;
    if (upload.info.caption === undefined) delete data.caption;
    await updateEntry(ctx, contentType, record, data);
  });
  const replaced = await readFile(ctx, _id);
  emitFileUpdate(ctx, replaced);
  return replaced;
}

/** The stored record of a file, or null. */
export async function storedFile(ctx: ServiceContext, id: string): Promise<StoredEntry | null> {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  return entries(ctx.models, UPLOAD_FILE_UID).findOne({ _id: Number(id) });
}

async function removeFileById(rt: UploadRuntime, ctx: ServiceContext, id: number): Promise<void> {
  // not while its bytes are being replaced: those would outlive the record
  const gone = new Error('gone');
  await withLease(
    ctx.models,
    UPLOAD_FILE_UID,
    id,
    () => gone,
    async () => {
      const record = await entries(ctx.models, UPLOAD_FILE_UID).findOne({ _id: id });
      if (!record) return;
      // Strapi's upload service deletes the record through its query engine: the delete hooks run
      await withLifecycles(ctx, { action: 'Delete', uid: UPLOAD_FILE_UID, params: { where: { id } }, id }, async () => {
        await deleteEntry(ctx.models, ctx.registry, UPLOAD_FILE_UID, id);
        return id;
      });
      await deleteStored(rt, record);
    },
  ).catch((error: unknown) => {
    if (error !== gone) throw error;
  });
}

/**
 * Deletes a file: its record, its id from every media attribute that held it (entries,
 * components, dynamic zones), then its bytes and formats. Answers the file as it was; null when
 * there is no such file.
 */
export async function removeFile(rt: UploadRuntime, ctx: OperationContext, id: string): Promise<PlainEntry | null> {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  const file = await readEntry(ctx, UPLOAD_FILE_UID, { _id: Number(id) }, {}, { style: 'plain' });
  if (!file) return null;
  await removeFileById(rt, ctx, file.id);
  ctx.events?.media('media.delete', file);
  return file;
}

// Listing has no page by default (Strapi answers every file): the window is only `start`/`limit`.
const NO_LIMIT = 2 ** 31 - 1;

function nonNegativeInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) throw new ValidationError(`Invalid parameter ${name}`);
  return Number(value);
}

/**
 * `GET /api/upload/files`: a bare array. `fields`, `filters`, `sort`, `populate` as for any
 * content-type; `start` and `limit` at the top level; `pagination[...]` is ignored, as Strapi does.
 * The file model's findMany hooks run around it (no count: the answer has no total).
 */
export async function findFiles(ctx: OperationContext, query: RawQuery): Promise<PlainEntry[]> {
  const start = nonNegativeInteger('start', query.start) ?? 0;
  const limit = nonNegativeInteger('limit', query.limit);
  const unlimited: OperationContext = {
    ...ctx,
    config: {
      ...ctx.config,
      api: { rest: { ...ctx.config.api.rest, defaultLimit: NO_LIMIT, maxLimit: NO_LIMIT, withCount: false } },
    },
  };
  const { fields, filters, sort, populate } = query;
  const related = asksForRelated(populate);
  const { entries: files } = await readEntries(
    unlimited,
    UPLOAD_FILE_UID,
    {
      fields,
      filters,
      sort,
      populate,
      pagination: { start: String(start), limit: String(limit ?? NO_LIMIT), withCount: 'false' },
    },
    { style: 'plain', lifecycles: ctx.lifecycles },
  );
  return related ? withRelated(ctx, files) : files;
}

/** `related` is not an attribute here (Strapi's morph relation): `populate` naming it, or `*`, asks for it. */
function asksForRelated(populate: unknown): boolean {
  const names = populatedNames(populate);
  return names === '*' || names.includes('related');
}

/** The files with their `related` entries; left out when there are none, as Strapi's sanitizer leaves it. */
async function withRelated(ctx: OperationContext, files: PlainEntry[]): Promise<PlainEntry[]> {
  const related = await relatedOfFiles(
    ctx,
    files.map((file) => file.id),
  );
  return files.map((file) => {
    const items = related.get(file.id) ?? [];
    return items.length > 0 ? { ...file, related: items } : file;
  });
}

/**
 * `GET /api/upload/files/:id`: the whole file (Strapi applies only `populate` here; `fields` is
 * checked, not applied); the file model's findOne hooks run with the id as the path gives it.
 */
export async function findFile(ctx: OperationContext, id: string, query: RawQuery): Promise<PlainEntry> {
  if (query.fields !== undefined) parseFields(fileContentType(ctx), query.fields);
  const file = /^[1-9]\d{0,14}$/.test(id)
    ? await readEntry(
        ctx,
        UPLOAD_FILE_UID,
        { _id: Number(id) },
        { populate: query.populate },
        { style: 'plain', lifecycles: ctx.lifecycles, where: { id } },
      )
    : null;
  if (!file) throw new NotFoundError('file.notFound');
  if (!asksForRelated(query.populate)) return file;
  const [withItems] = await withRelated(ctx, [file]);
  return withItems ?? file;
}
