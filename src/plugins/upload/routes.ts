/**
 * Strapi v4's upload routes under `/api`: `POST /upload` (files, or `?id=` to update or replace
 * one), `GET /upload/files`, `GET /upload/files/:id`, `DELETE /upload/files/:id`. Each is an
 * action of the plugin's `content-api` controller (`plugin::upload.content-api.<action>`), which
 * an app's `src/extensions/upload` may wrap; the permission is checked before the body is read.
 */
import type { Request } from 'express';
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors/index.js';
import { readEntry } from '../../query/index.js';
import { operationContext, rawQuery, requestAuth } from '../../operations/request-context.js';
import type { ServiceContext } from '../../service-context.js';
import { isPlainObject } from '../../write/index.js';
import type { PluginRoute } from '../types.js';
import { readAttachRequest, resolveAttachTarget } from './attach.js';
import { asFormidable } from './file-data.js';
import { readFileInfo } from './file-info.js';
import { apiUploadFolder } from './folders.js';
import { findFile, findFiles, publicFile, type UploadRuntime } from './files.js';
import { byName, isMultipart, readMultipart, type IncomingFile, type MultipartBody } from './multipart.js';
import { uploadServiceOf } from './services.js';
import { withWorkDir } from './work-dir.js';

export const UPLOAD_ACTIONS = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

function requireAction(req: Request, action: string): void {
  if (!requestAuth(req).ability.can(action)) throw new ForbiddenError();
}

interface UploadBody {
  /** a field sent several times (one `fileInfo` per file) is an array */
  fields: Record<string, unknown>;
  files: IncomingFile[];
}

function uploadBody(body: MultipartBody): UploadBody {
  const fields = byName(body.fields.map(({ name, value }) => [name, value] as const));
  return { fields, files: body.files.filter((file) => file.field === 'files') };
}

/**
 * The body's `path`: where the app's provider package stores the files (S3's key prefix, as the
 * admin's folders do not name it); Strapi hands it on as sent, the local provider ignores it.
 */
function storagePath(value: unknown): { path?: string } {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'string') throw new ValidationError('path must be a `string` type');
  return { path: value };
}

/** The name Strapi's size check gives a file: its `fileInfo.name`, else the name it was sent with. */
function usedName(file: IncomingFile, body: MultipartBody): string {
  const { fields, files } = uploadBody(body);
  try {
    return (readFileInfo(fields.fileInfo, files.length)[files.indexOf(file)]?.name || file.filename).normalize();
  } catch {
    return file.filename;
  }
}

async function readUploadBody(req: Request, rt: UploadRuntime, dir: string): Promise<UploadBody> {
  if (!isMultipart(req)) return { fields: isPlainObject(req.body) ? req.body : {}, files: [] };
  const { sizeLimit, maxFileSize } = rt.settings;
  return uploadBody(await readMultipart(req, { sizeLimit, maxFileSize, directory: dir, nameOf: usedName }));
}

/** The plugin's content-API routes, each answered by its `content-api` action (an extension may wrap or replace them). */
export function uploadRoutes(service: ServiceContext, rt: UploadRuntime): PluginRoute[] {
  return [
    {
      method: 'POST',
      path: '/',
      handler: 'content-api.upload',
      async run(req, res) {
        requireAction(req, UPLOAD_ACTIONS.upload);
        const ctx = operationContext(service, req);
        const id = typeof req.query.id === 'string' ? req.query.id : undefined;
        const answer = await withWorkDir(async (workDir) => {
          const body = await readUploadBody(req, rt, workDir);
          const { fields } = body;
          // as Strapi's controller: one empty file is no file (`files.size === 0`)
          const files = body.files.length === 1 && body.files[0]?.size === 0 ? [] : body.files;
          // as Strapi's content-api controller: the upload service, which the app may have changed
          const uploadService = uploadServiceOf(service, rt);
          if (id !== undefined && files.length === 0)
            return uploadService.updateFileInfo(id, { ...readFileInfo(fields.fileInfo, 1)[0] });
          if (files.length === 0) throw new ValidationError('Files are empty');
          if (id !== undefined) {
            if (files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
            const [file] = files.map(asFormidable);
            return uploadService.replace(id, {
              data: { fileInfo: readFileInfo(fields.fileInfo, 1)[0] },
              file,
            });
          }
          const path = storagePath(fields.path);
          const read = readFileInfo(fields.fileInfo, files.length);
          const attach = readAttachRequest(fields);
          // the caller may change the entry the files go into (Strapi does not check this)
          if (attach) await resolveAttachTarget(ctx, requestAuth(req), attach);
          // as Strapi's controller, once the body is valid: the content API's files go into the
          // "API Uploads" folder (made at the first upload)
          const folder = await apiUploadFolder(ctx);
          const infos = read.map((info) => ({ ...info, folder }));
          return uploadService.upload({
            data: { fileInfo: files.length > 1 ? infos : infos[0], ...(attach ?? {}), ...path },
            files: files.map(asFormidable),
          });
        });
        res
          .status(200)
          .json(Array.isArray(answer) ? answer.map((file) => publicFile(service, file)) : publicFile(service, answer));
      },
    },
    {
      method: 'GET',
      path: '/files',
      handler: 'content-api.find',
      async run(req, res) {
        requireAction(req, UPLOAD_ACTIONS.find);
        res.status(200).json(await findFiles(operationContext(service, req), rawQuery(req)));
      },
    },
    {
      method: 'GET',
      path: '/files/:id',
      handler: 'content-api.findOne',
      async run(req, res) {
        requireAction(req, UPLOAD_ACTIONS.findOne);
        res.status(200).json(await findFile(operationContext(service, req), String(req.params.id), rawQuery(req)));
      },
    },
    {
      method: 'DELETE',
      path: '/files/:id',
      handler: 'content-api.destroy',
      async run(req, res) {
        requireAction(req, UPLOAD_ACTIONS.destroy);
        const id = String(req.params.id);
        const file = /^[1-9]\d{0,14}$/.test(id)
          ? await readEntry(
              operationContext(service, req),
              UPLOAD_FILE_UID,
              { _id: Number(id) },
              {},
              { style: 'plain' },
            )
          : null;
        if (!file) throw new NotFoundError('file.notFound');
        // null: a parallel delete removed it first
        if ((await uploadServiceOf(service, rt).remove(file)) === null) throw new NotFoundError('file.notFound');
        res.status(200).json(publicFile(service, file));
      },
    },
  ];
}
