/**
 * `strapi.plugin('upload').service('upload')` with Strapi 4.26's methods, argument shapes and
 * answers: `formatFileInfo`, `enhanceAndValidateFile` (`enhanceFile`), `upload`, `uploadToEntity`,
 * `uploadImage`, `uploadFileAndPersist`, `add`, `update`, `updateFileInfo`, `replace`, `remove`,
 * `findOne`, `findMany`, `findPage`, `emitEvent`, `getSettings`/`setSettings`,
 * `getConfiguration`/`setConfiguration`. Each method reaches the others through `this`, and the
 * plugin's own paths (REST, GraphQL, entry files) call the service the app may have wrapped or
 * changed, so what an app puts in place of a method takes effect everywhere, as in Strapi.
 *
 * What this service adds to Strapi's steps (its checks, all before the first file is stored):
 * the type comes from the bytes (magic numbers) and must agree with the name and the declared
 * type; an image sharp cannot decode is refused; `ref`/`refId`/`field` name an existing media
 * attribute that accepts the files; a file whose storing or recording fails leaves nothing stored,
 * and an upload of several files that fails half-way removes what it stored.
 */
import { createReadStream } from 'node:fs';
import { ALLOW_ALL } from '../../access/ability.js';
import { UPLOAD_FILE_UID, type ContentType } from '../../content-types/index.js';
import { ApplicationError, NotFoundError, ValidationError } from '../../errors/index.js';
import { entityReadQuery, pageParams, type OperationContext } from '../../operations/index.js';
import { APP_CODE, readEntries, readEntry, type PlainEntry } from '../../query/index.js';
import type { ServiceContext } from '../../service-context.js';
import { createEntry, isPlainObject, loadEntry, updateEntry } from '../../write/index.js';
import { assertAccepts, attachFiles, readAttachRequest, resolveAttachTarget, type AttachTarget } from './attach.js';
import { checkedMimeType } from './content-type.js';
import { readFileInfo, type FileInfo } from './file-info.js';
import { assertValidFilename, fileExtension, fileHash } from './file-names.js';
import { asFileData, formidableFile, onDisk, textOf, type FileData } from './file-data.js';
import { deleteStored, publicFile, readFile, removeFileById, type UploadRuntime } from './files.js';
import { IMAGE_MIMES, type ImageManipulationService, type ImageSettings } from './images.js';
import type { ProviderService } from './provider-service.js';
import { replaceFile } from './replace-file.js';
import { apiFolderMadeAgain, apiUploadFolder, folderPathOf } from './folders.js';
import { forgetPendingUpload, notePending } from './pending-uploads.js';
import { withWorkDir } from './work-dir.js';
import { bytesToKbytes } from './sizes.js';

type Data = Record<string, unknown>;
type Options = { user?: unknown };

export interface MediaSettings {
  sizeOptimization: boolean;
  responsiveDimensions: boolean;
  autoOrientation: boolean;
}

export interface UploadService {
  emitEvent(event: 'media.create' | 'media.update' | 'media.delete', data: Data): Promise<void>;
  formatFileInfo(
    file: { filename?: unknown; type?: unknown; size?: unknown },
    fileInfo?: Data,
    metas?: Data,
  ): Promise<FileData>;
  enhanceAndValidateFile(file: unknown, fileInfo?: Data, metas?: Data): Promise<FileData>;
  enhanceFile(file: unknown, fileInfo?: Data, metas?: Data): Promise<FileData>;
  upload(params: { data?: Data; files: unknown }, options?: Options): Promise<PlainEntry[]>;
  uploadImage(fileData: FileData): Promise<void>;
  uploadFileAndPersist(fileData: unknown, options?: Options): Promise<PlainEntry>;
  updateFileInfo(id: unknown, info?: Data, options?: Options): Promise<PlainEntry>;
  replace(id: unknown, params: { data?: Data; file: unknown }, options?: Options): Promise<PlainEntry>;
  update(id: unknown, values: Data, options?: Options): Promise<PlainEntry>;
  add(values: Data, options?: Options): Promise<PlainEntry>;
  findOne(id: unknown, populate?: unknown): Promise<PlainEntry | null>;
  findMany(query?: Data): Promise<PlainEntry[]>;
  findPage(query?: Data): Promise<{
    results: PlainEntry[];
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
  }>;
  remove(file: unknown): Promise<PlainEntry | null>;
  uploadToEntity(params: { id: unknown; model: unknown; field: unknown }, files: unknown): Promise<PlainEntry[]>;
  getSettings(): Promise<MediaSettings>;
  setSettings(value: unknown): Promise<void>;
  getConfiguration(): Promise<Data>;
  setConfiguration(value: unknown): Promise<void>;
}

/** The plugin's other services as the app may have changed them, read at each call. */
export interface SiblingServices {
  images(): ImageManipulationService;
  provider(): ProviderService;
}

const notFound = () => new NotFoundError('Entity not found');
const NO_LIMIT = 2 ** 31 - 1;
/** Keys of a stored file that are null rather than absent, as Strapi's records answer them. */
const RECORD_KEYS = [
  'name',
  'alternativeText',
  'caption',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
];
const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];
/** Attributes a file's values never set (the database's own). */
const OWN_KEYS = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/** A format as Strapi stores it in `formats` (the file's bytes and streams left out). */
function storedFormat(format: unknown): Data | null {
  if (!isPlainObject(format)) return null;
  const stored: Data = {};
  for (const key of FORMAT_KEYS) stored[key] = format[key] ?? null;
  if (isPlainObject(format.provider_metadata)) stored.provider_metadata = format.provider_metadata;
  return stored;
}

function storedFormats(formats: unknown): Data | null {
  if (!isPlainObject(formats)) return null;
  const entries = Object.entries(formats).flatMap(([key, format]) => {
    const stored = storedFormat(format);
    return stored ? [[key, stored] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/** What of `values` the file's record stores: its attributes (the app's added ones too), `formats` as stored. */
function recordData(contentType: ContentType, values: Data, whole: boolean): Data {
  const data: Data = {};
  for (const key of Object.keys(contentType.attributes)) {
    if (OWN_KEYS.has(key)) continue;
    if (values[key] !== undefined) data[key] = key === 'formats' ? storedFormats(values.formats) : values[key];
    else if (whole && RECORD_KEYS.includes(key)) data[key] = null;
  }
  return data;
}

/** Strapi's `related` of a file-to-be (`[{ id, __type, __pivot: { field } }]`) as an attach request. */
function relatedAttach(values: Data) {
  const [link] = Array.isArray(values.related) ? (values.related as unknown[]) : [];
  if (!isPlainObject(link)) return null;
  const pivot = isPlainObject(link.__pivot) ? link.__pivot : {};
  return readAttachRequest({ ref: link.__type, refId: link.id, field: pivot.field });
}

function filesOf(files: unknown): unknown[] {
  if (Array.isArray(files)) return files;
  return files === undefined || files === null ? [] : [files];
}

function idOf(id: unknown): string {
  return typeof id === 'number' || typeof id === 'string' ? String(id) : '';
}

/** The checks Strapi's steps leave out, on a file about to be stored: its names and its bytes. */
async function assertStorable(fileData: FileData, images: ImageManipulationService): Promise<void> {
  const name = textOf(fileData, 'name') ?? '';
  assertValidFilename(name);
  const ext = textOf(fileData, 'ext') ?? '';
  const path = await onDisk(fileData, 'uploadFileAndPersist');
  const filename = ext !== '' && name.endsWith(ext) ? name : `${name}${ext}`;
  fileData.mime = await checkedMimeType({
    field: 'files',
    filename,
    declaredMime: textOf(fileData, 'mime') ?? '',
    path,
    size: 0,
  });
  await assertDecodable(fileData, images);
}

/**
 * An image (by sharp's reading, or by the type of its bytes) that sharp cannot decode is refused.
 * One sharp decodes but does not process (an AVIF or HEIC, which sharp reads as `heif`) is stored
 * as it is, without dimensions or formats, as in Strapi.
 */
async function assertDecodable(fileData: FileData, images: ImageManipulationService): Promise<void> {
  const claimsImage = (await images.isImage(fileData)) || IMAGE_MIMES.has(String(fileData.mime));
  if (claimsImage && (await images.isFaultyImage(fileData))) throw new ApplicationError('File is not a valid image');
}

/**
 * Files through the service as Strapi's callers go (its `upload`, `uploadToEntity`, GraphQL's
 * mutations): every file through `enhanceAndValidateFile`, the target checked to take them all,
 * then each through `uploadFileAndPersist`, in order. One that fails undoes the ones before it.
 */
export async function uploadFilesThrough(
  service: ServiceContext,
  rt: UploadRuntime,
  that: UploadService,
  upload: { files: unknown[]; infos: FileInfo[]; metas: Data },
  options: Options = {},
): Promise<PlainEntry[]> {
  const { files, infos, metas } = upload;
  if (files.length === 0) throw new ValidationError('Files are empty');
  const ctx: OperationContext = { ...service, access: APP_CODE };
  const attach = readAttachRequest(metas);
  const target: AttachTarget | null = attach
    ? await resolveAttachTarget(ctx, { strategy: 'none', ability: ALLOW_ALL }, attach)
    : null;
  // every meta reaches formatFileInfo, as in Strapi (`path`, and what an app's own version reads)
  const related = { ...metas, ...(attach ? { ref: attach.ref, refId: attach.refId, field: attach.field } : {}) };
  return withWorkDir(async (tmpWorkingDirectory) => {
    const enhanced: FileData[] = [];
    for (const [i, file] of files.entries()) {
      const withDir = isPlainObject(file) ? { ...file, tmpWorkingDirectory } : file;
      enhanced.push(await that.enhanceAndValidateFile(withDir, { ...(infos[i] ?? {}) }, related));
    }
    if (target)
      assertAccepts(
        target,
        enhanced.map((file) => ({ name: textOf(file, 'name') ?? '', mime: textOf(file, 'mime') ?? '' })),
      );
    const stored: PlainEntry[] = [];
    try {
      for (const fileData of enhanced) stored.push(await that.uploadFileAndPersist(fileData, options));
    } catch (err) {
      for (const file of stored) await removeFileAndTell(ctx, rt, file.id).catch(() => undefined);
      throw err;
    }
    return stored;
  });
}

/** Removes a stored file (record, references, bytes) and tells `media.delete`; null when there is none. */
export async function removeFileAndTell(
  ctx: OperationContext,
  rt: UploadRuntime,
  id: number,
): Promise<PlainEntry | null> {
  const file = await readEntry(ctx, UPLOAD_FILE_UID, { _id: id }, {}, { style: 'plain' });
  if (!file || !(await removeFileById(rt, ctx, id))) return null;
  ctx.events?.media('media.delete', publicFile(ctx, file));
  return file;
}

export function createUploadService(
  service: ServiceContext,
  rt: UploadRuntime,
  siblings: SiblingServices,
  media: { settings: MediaSettings; configuration: Data },
): UploadService {
  const ctx: OperationContext = { ...service, access: APP_CODE };
  const contentType = (): ContentType => {
    const found = ctx.registry.contentType(UPLOAD_FILE_UID);
    if (!found) throw new Error('the upload plugin content-type is not registered');
    return found;
  };
  /** file data made by enhanceAndValidateFile: checked already */
  const checked = new WeakSet<object>();
  const self = (that: unknown): UploadService => (isPlainObject(that) ? (that as unknown as UploadService) : own);

  const own: UploadService = {
    async emitEvent(event, data) {
      ctx.events?.media(event, isPlainObject(data) ? publicFile(ctx, data as PlainEntry) : data);
    },

    async formatFileInfo(file, fileInfo = {}, metas = {}) {
      const filename = typeof file.filename === 'string' ? file.filename : '';
      const type = typeof file.type === 'string' ? file.type : 'application/octet-stream';
      assertValidFilename(filename);
      const ext = fileExtension(filename, type);
      const name = (typeof fileInfo.name === 'string' && fileInfo.name ? fileInfo.name : filename).normalize();
      assertValidFilename(name);
      const size = typeof file.size === 'number' ? file.size : Number(file.size ?? 0);
      const entity: FileData = {
        name,
        alternativeText: fileInfo.alternativeText,
        caption: fileInfo.caption,
        folder: fileInfo.folder,
        folderPath: await folderPathOf(ctx, fileInfo.folder),
        hash: fileHash(name, ext),
        ext,
        mime: type,
        size: bytesToKbytes(size),
        sizeInBytes: size,
      };
      if (metas.refId && metas.ref && metas.field)
        entity.related = [{ id: metas.refId, __type: metas.ref, __pivot: { field: metas.field } }];
      if (metas.path) entity.path = metas.path;
      if (metas.tmpWorkingDirectory) entity.tmpWorkingDirectory = metas.tmpWorkingDirectory;
      return entity;
    },

    async enhanceAndValidateFile(file, fileInfo = {}, metas = {}) {
      const incoming = formidableFile(file);
      assertValidFilename(incoming.filename);
      const mime = await checkedMimeType(incoming);
      const tmpWorkingDirectory = isPlainObject(file) ? file.tmpWorkingDirectory : undefined;
      const current = await self(this).formatFileInfo(
        { filename: incoming.filename, type: mime, size: incoming.size },
        fileInfo,
        { ...metas, tmpWorkingDirectory },
      );
      current.filepath = incoming.path;
      current.getStream = () => createReadStream(incoming.path);
      const images = siblings.images();
      await assertDecodable(current, images);
      const enhanced = (await images.isOptimizableImage(current)) ? await images.optimize(current) : current;
      checked.add(enhanced);
      return enhanced;
    },

    enhanceFile(file, fileInfo, metas) {
      return self(this).enhanceAndValidateFile(file, fileInfo, metas);
    },

    async upload({ data = {}, files }, options = {}) {
      const list = filesOf(files);
      const { fileInfo, ...metas } = data;
      return uploadFilesThrough(
        service,
        rt,
        self(this),
        { files: list, infos: readFileInfo(fileInfo, list.length, { withFolder: true }), metas },
        options,
      );
    },

    async uploadToEntity({ id, model, field }, files) {
      const list = filesOf(files);
      const folder = await apiUploadFolder(ctx);
      return uploadFilesThrough(service, rt, self(this), {
        files: list,
        infos: list.map(() => ({ folder })),
        metas: { ref: model, refId: id, field },
      });
    },

    async uploadImage(fileData) {
      const images = siblings.images();
      const provider = siblings.provider();
      Object.assign(fileData, await images.getDimensions(fileData));
      // the formats are made from the original before anything is handed to the provider
      const formats: Array<{ key: string; file: FileData }> = [];
      if (await images.isResizableImage(fileData)) {
        const thumbnail = await images.generateThumbnail(fileData);
        if (thumbnail) formats.push({ key: 'thumbnail', file: thumbnail });
        for (const format of await images.generateResponsiveFormats(fileData)) if (format) formats.push(format);
      }
      await provider.upload(fileData);
      for (const { key, file } of formats) {
        await provider.upload(file);
        fileData.formats = { ...(isPlainObject(fileData.formats) ? fileData.formats : {}), [key]: file };
      }
    },

    async uploadFileAndPersist(value, options = {}) {
      const that = self(this);
      const fileData = asFileData(value, 'uploadFileAndPersist');
      const ownDir = textOf(fileData, 'tmpWorkingDirectory') === undefined;
      const persist = async () => {
        const images = siblings.images();
        if (checked.has(fileData)) await onDisk(fileData, 'uploadFileAndPersist');
        else await assertStorable(fileData, images);
        await siblings.provider().checkFileSize(fileData);
        const storedBefore = typeof fileData.url === 'string';
        // until its record is written, bytes a crash would leave are the sweep's (leftover-sweep.ts)
        const note = storedBefore ? undefined : await notePending(ctx.models, rt, textOf(fileData, 'hash'));
        try {
          if (await images.isImage(fileData)) await that.uploadImage(fileData);
          else await siblings.provider().upload(fileData);
          fileData.provider = rt.provider.name;
          return await that.add(fileData, options);
        } catch (err) {
          // what the provider stored for this file goes again
          if (!storedBefore) await deleteStored(rt, { ...fileData, provider: rt.provider.name }).catch(() => undefined);
          throw err;
        } finally {
          if (note) await forgetPendingUpload(ctx.models, note);
        }
      };
      if (!ownDir) return persist();
      // a seed's file data has no working directory of its own: one for the time of the call
      return withWorkDir(async (dir) => {
        fileData.tmpWorkingDirectory = dir;
        try {
          return await persist();
        } finally {
          delete fileData.tmpWorkingDirectory;
        }
      });
    },

    async add(values) {
      const attach = relatedAttach(values);
      const target = attach ? await resolveAttachTarget(ctx, { strategy: 'none', ability: ALLOW_ALL }, attach) : null;
      if (target) assertAccepts(target, [{ name: textOf(values, 'name') ?? '', mime: textOf(values, 'mime') ?? '' }]);
      const folder = await apiFolderMadeAgain(ctx, values.folder);
      const placed = folder === undefined ? values : { ...values, folder, folderPath: await folderPathOf(ctx, folder) };
      const id = await createEntry(ctx, contentType(), recordData(contentType(), placed, true));
      // the entry (or component) deleted since it was checked: the file does not stay
      if (target && !(await attachFiles(ctx, target, [id]))) {
        await removeFileById(rt, ctx, id);
        throw new ValidationError(`${target.component ?? target.contentType.uid} ${target.refId} does not exist`);
      }
      const file = await readFile(ctx, id);
      await self(this).emitEvent('media.create', file);
      return file;
    },

    async update(id, values) {
      const record = await loadEntry(ctx, contentType(), idOf(id)).catch(() => {
        throw notFound();
      });
      await updateEntry(ctx, contentType(), record, recordData(contentType(), values, false));
      const updated = await readFile(ctx, record._id);
      // Strapi's entity service's event, then the upload service's own
      ctx.events?.entry('entry.update', UPLOAD_FILE_UID, publicFile(ctx, updated));
      await self(this).emitEvent('media.update', updated);
      return updated;
    },

    async updateFileInfo(id, info = {}, options = {}) {
      const that = self(this);
      const dbFile = await that.findOne(id);
      if (!dbFile) throw notFound();
      const kept = (key: string) => (info[key] === undefined || info[key] === null ? dbFile[key] : info[key]);
      // a folder given moves the file there (Strapi's admin does so); absent: it stays where it is
      const [{ folder } = {}] = readFileInfo({ folder: info.folder }, 1, { withFolder: true });
      const moved = folder === undefined ? {} : { folder, folderPath: await folderPathOf(ctx, folder) };
      return that.update(
        id,
        { name: kept('name'), alternativeText: kept('alternativeText'), caption: kept('caption'), ...moved },
        options,
      );
    },

    async replace(id, { data = {}, file }, options = {}) {
      const that = self(this);
      const dbFile = await that.findOne(id);
      if (!dbFile) throw notFound();
      const fileInfo = isPlainObject(data.fileInfo) ? data.fileInfo : {};
      return withWorkDir(async (tmpWorkingDirectory) => {
        const withDir = isPlainObject(file) ? { ...file, tmpWorkingDirectory } : file;
        const fileData = await that.enhanceAndValidateFile(withDir, fileInfo);
        // new bytes, same place: Strapi's replace sets folderPath '/' and keeps the folder, which disagree
        delete fileData.folder;
        delete fileData.folderPath;
        return replaceFile(ctx.models, rt, ctx.logger, { id: dbFile.id, ext: String(dbFile.ext ?? '') }, fileData, {
          store: async (stored) => {
            if (await siblings.images().isImage(stored)) await that.uploadImage(stored);
            else await siblings.provider().upload(stored);
          },
          update: (values) => that.update(dbFile.id, values, options),
        });
      });
    },

    async findOne(id, populate) {
      const raw = idOf(id);
      if (!/^[1-9]\d{0,14}$/.test(raw)) return null;
      return readEntry(ctx, UPLOAD_FILE_UID, { _id: Number(raw) }, populate === undefined ? {} : { populate }, {
        style: 'plain',
        lifecycles: ctx.lifecycles,
        where: { id },
      });
    },

    async findMany(query = {}) {
      const { entries } = await readEntries(unlimited(ctx), UPLOAD_FILE_UID, entityReadQuery(query, true), {
        style: 'plain',
        lifecycles: ctx.lifecycles,
      });
      return entries;
    },

    async findPage(query = {}) {
      const { page, pageSize } = pageParams(query);
      const { page: _p, pageSize: _s, start: _start, limit: _limit, ...matching } = query;
      const { entries, pagination } = await readEntries(
        unlimited(ctx),
        UPLOAD_FILE_UID,
        {
          ...entityReadQuery(matching, false),
          pagination: { start: (page - 1) * pageSize, limit: pageSize, withCount: true },
        },
        { style: 'plain', lifecycles: ctx.lifecycles },
      );
      const total = pagination.total ?? entries.length;
      return { results: entries, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },

    async remove(file) {
      if (!isPlainObject(file)) throw new ValidationError('remove: the file must be an object with its id');
      const id = Number(idOf(file.id));
      return Number.isInteger(id) && id > 0 ? removeFileAndTell(ctx, rt, id) : null;
    },

    async getSettings() {
      return { ...media.settings };
    },
    async setSettings(value) {
      if (!isPlainObject(value)) throw new ValidationError('setSettings: the settings must be an object');
      for (const key of ['sizeOptimization', 'responsiveDimensions', 'autoOrientation'] as const)
        if (typeof value[key] === 'boolean') media.settings[key] = value[key];
    },
    async getConfiguration() {
      return { ...media.configuration };
    },
    async setConfiguration(value) {
      if (!isPlainObject(value)) throw new ValidationError('setConfiguration: the configuration must be an object');
      media.configuration = { ...value };
    },
  };
  return own;
}

/** Every file unless `limit` is given: Strapi's entity service has no page size. */
function unlimited(ctx: OperationContext): OperationContext {
  return {
    ...ctx,
    config: {
      ...ctx.config,
      api: { rest: { ...ctx.config.api.rest, defaultLimit: NO_LIMIT, maxLimit: -1, withCount: false } },
    },
  };
}

/** The image service's view of the media settings (Strapi reads them from the upload service). */
export function imageSettings(rt: UploadRuntime, media: { settings: MediaSettings }): () => ImageSettings {
  return () => ({ ...media.settings, breakpoints: rt.settings.breakpoints });
}
