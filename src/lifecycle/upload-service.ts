/**
 * `strapi.plugin('upload').service('upload')` as the app's code calls it (a custom controller
 * storing the files of `ctx.request.files`, a lifecycle attaching one, a seed script):
 * `upload({ data, files })`, `uploadToEntity({ id, model, field }, files)`, and the lower
 * `formatFileInfo` and `uploadFileAndPersist` (upload-file-data.ts), over the upload plugin's own
 * operation (the provider, the size limit, the type checks, the image formats). `files` are formidable's files
 * (`filepath`, `originalFilename`, `mimetype`, `size`), one or a list, as koa-body gives them. As
 * every service call of the app's code, no permission is checked.
 */
import { ALLOW_ALL } from '../access/ability.js';
import { ValidationError } from '../errors/index.js';
import type { OperationContext } from '../operations/index.js';
import {
  readAttachRequest,
  readFileInfo,
  uploadFiles,
  uploadRuntime,
  withWorkDir,
  type IncomingFile,
} from '../plugins/upload/index.js';
import { APP_CODE } from '../query/index.js';
import type { ServiceContext } from '../service-context.js';
import { isPlainObject } from '../write/index.js';
import { fileDataUpload, formatFileInfo } from './upload-file-data.js';

export interface UploadService {
  upload(params: { data?: Record<string, unknown>; files: unknown }): Promise<Record<string, unknown>[]>;
  uploadToEntity(
    params: { id: unknown; model: unknown; field: unknown },
    files: unknown,
  ): Promise<Record<string, unknown>[]>;
  formatFileInfo(
    file: { filename?: unknown; type?: unknown; size?: unknown },
    fileInfo?: Record<string, unknown>,
    metas?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  uploadFileAndPersist(fileData: unknown): Promise<Record<string, unknown>>;
}

/** A formidable file (v2 names, or v1's `path`, `name`, `type`) as the upload operation reads it. */
function incoming(file: unknown): IncomingFile {
  if (!isPlainObject(file)) throw new ValidationError('upload: each file must be an object with its filepath');
  const text = (...keys: string[]) => keys.map((key) => file[key]).find((v): v is string => typeof v === 'string');
  const path = text('filepath', 'path');
  if (path === undefined) throw new ValidationError('upload: a file needs its filepath');
  return {
    field: 'files',
    path,
    filename: text('originalFilename', 'name') ?? 'file',
    declaredMime: text('mimetype', 'type') ?? 'application/octet-stream',
    size: typeof file.size === 'number' ? file.size : 0,
  };
}

export function createUploadService(service: ServiceContext): UploadService {
  const ctx: OperationContext = { ...service, access: APP_CODE };
  const runtime = () => {
    const rt = uploadRuntime(service);
    if (!rt) throw new ValidationError('The upload plugin is disabled');
    return rt;
  };
  const upload: UploadService['upload'] = async ({ data = {}, files }) => {
    const rt = runtime();
    const list = (Array.isArray(files) ? files : files === undefined || files === null ? [] : [files]).map(incoming);
    // the image formats are made in a directory of their own, as Strapi's service does: the files'
    // own directory may be the project's (a seed's `data/`), which they must not be left in
    return withWorkDir((workDir) =>
      uploadFiles(
        rt,
        ctx,
        { strategy: 'none', ability: ALLOW_ALL },
        { files: list, infos: readFileInfo(data.fileInfo, list.length), attach: readAttachRequest(data), workDir },
      ),
    );
  };
  return {
    upload,
    uploadToEntity: ({ id, model, field }, files) => upload({ data: { ref: model, refId: id, field }, files }),
    formatFileInfo: async (file, fileInfo, metas) => formatFileInfo(file, fileInfo, metas),
    async uploadFileAndPersist(fileData) {
      const rt = runtime();
      const [stored] = await withWorkDir(async (workDir) => {
        const { file, info, attach } = await fileDataUpload(fileData, workDir);
        return uploadFiles(
          rt,
          ctx,
          { strategy: 'none', ability: ALLOW_ALL },
          { files: [file], infos: [info], attach: readAttachRequest(attach), workDir },
        );
      });
      if (!stored) throw new Error('uploadFileAndPersist stored no file');
      return stored;
    },
  };
}
