/**
 * The upload plugin's runtime (settings, provider) and what its service and routes share over the
 * stored files: a file's record read back, its bytes deleted, its removal (record, references,
 * bytes), and the reads of `GET /api/upload/files` and `/files/:id`.
 */
import type { UploadSettings } from './config.js';
import { isPrivate, UPLOAD_FILE_UID, type ContentType } from '../../content-types/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { pageParams, type OperationContext, type RawQuery } from '../../operations/index.js';
import { readEntries, readEntry, type PlainEntry } from '../../query/index.js';
import { parseFields } from '../../query/parse/fields.js';
import { populatedNames } from '../../query/parse/populate.js';
import type { ServiceContext } from '../../service-context.js';
import { deleteEntry, entries, withLease, withLifecycles, type StoredEntry } from '../../write/index.js';
import { relatedOfFiles } from './related.js';
import type { ProviderFile, UploadProvider } from './provider.js';

export interface UploadRuntime {
  settings: UploadSettings;
  provider: UploadProvider;
}

const notFound = () => new NotFoundError('Entity not found');

function fileContentType(ctx: ServiceContext): ContentType {
  const contentType = ctx.registry.contentType(UPLOAD_FILE_UID);
  if (!contentType) throw new Error('the upload plugin content-type is not registered');
  return contentType;
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

/** Removes the bytes of a file and its formats from the provider (not its record). */
export async function deleteStored(rt: UploadRuntime, record: Record<string, unknown>): Promise<void> {
  if (record.provider !== rt.provider.name) return;
  await Promise.all(storedParts(record).map((part) => rt.provider.delete(part)));
}

/** A file as the upload service answers it (flat, every attribute). */
export async function readFile(ctx: OperationContext, id: number): Promise<PlainEntry> {
  const file = await readEntry(ctx, UPLOAD_FILE_UID, { _id: id }, {}, { style: 'plain' });
  if (!file) throw notFound();
  return file;
}

/** The stored record of a file, or null. */
export async function storedFile(ctx: ServiceContext, id: string): Promise<StoredEntry | null> {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  return entries(ctx.models, UPLOAD_FILE_UID).findOne({ _id: Number(id) });
}

/**
 * Removes a file's record (its delete hooks run, its references go) and then its bytes; not while
 * it is being replaced. False when there was no record (a parallel removal took it first).
 */
export async function removeFileById(rt: UploadRuntime, ctx: ServiceContext, id: number): Promise<boolean> {
  // not while its bytes are being replaced: those would outlive the record
  const gone = new Error('gone');
  return withLease(
    ctx.models,
    UPLOAD_FILE_UID,
    id,
    () => gone,
    async () => {
      const record = await entries(ctx.models, UPLOAD_FILE_UID).findOne({ _id: id });
      if (!record) return false;
      // Strapi's upload service deletes the record through its query engine: the delete hooks run
      await withLifecycles(ctx, { action: 'Delete', uid: UPLOAD_FILE_UID, params: { where: { id } }, id }, async () => {
        await deleteEntry(ctx.models, ctx.registry, UPLOAD_FILE_UID, id);
        return id;
      });
      await deleteStored(rt, record);
      return true;
    },
  ).catch((error: unknown) => {
    if (error !== gone) throw error;
    return false;
  });
}

// Listing has no page by default (Strapi answers every file): the window is only `start`/`limit`.
const NO_LIMIT = 2 ** 31 - 1;

function nonNegativeInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) throw new ValidationError(`Invalid parameter ${name}`);
  return Number(value);
}

/** `limit` as Strapi's query conversion reads it: -1 and 0 mean every file. */
function listLimit(value: unknown): number {
  if (value === '-1') return NO_LIMIT;
  const limit = nonNegativeInteger('limit', value);
  return limit === undefined || limit === 0 ? NO_LIMIT : limit;
}

/**
 * A file as Strapi's sanitizers give it to clients and event listeners: without the private
 * attributes (`folder`, `folderPath`, an app's own).
 */
export function publicFile(ctx: ServiceContext, file: PlainEntry): PlainEntry {
  const hidden = Object.entries(fileContentType(ctx).attributes).filter(([, attribute]) => isPrivate(attribute));
  if (!hidden.some(([name]) => name in file)) return file;
  const shown = { ...file };
  for (const [name] of hidden) delete shown[name];
  return shown;
}

/**
 * `GET /api/upload/files`: a bare array. `fields`, `filters`, `sort`, `populate`, `_q` (Strapi's
 * search) as for any content-type; `start` and `limit` at the top level; `page`/`pageSize` are
 * checked as Strapi's query conversion checks them (an invalid one, or one mixed with
 * `start`/`limit`, is its 400 PaginationError) but select nothing, and `pagination[...]` is
 * ignored, as Strapi does.
 * The file model's findMany hooks run around it (no count: the answer has no total).
 */
export async function findFiles(ctx: OperationContext, query: RawQuery): Promise<PlainEntry[]> {
  pageParams(query);
  const start = nonNegativeInteger('start', query.start) ?? 0;
  const limit = listLimit(query.limit);
  const unlimited: OperationContext = {
    ...ctx,
    config: {
      ...ctx.config,
      api: { rest: { ...ctx.config.api.rest, defaultLimit: NO_LIMIT, maxLimit: NO_LIMIT, withCount: false } },
    },
  };
  const { fields, filters, sort, populate, _q } = query;
  const related = asksForRelated(populate);
  const { entries: files } = await readEntries(
    unlimited,
    UPLOAD_FILE_UID,
    {
      fields,
      filters,
      sort,
      populate,
      _q,
      pagination: { start: String(start), limit: String(limit), withCount: 'false' },
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
