/**
 * Strapi v4's upload routes under `/api`: `POST /upload` (files, or `?id=` to update or replace
 * one), `GET /upload/files`, `GET /upload/files/:id`, `DELETE /upload/files/:id`. Each is an
 * action of the plugin's `content-api` controller (`plugin::upload.content-api.<action>`), which
 * an app's `src/extensions/upload` may wrap; the permission is checked before the body is read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'express';
import { ForbiddenError, NotFoundError } from '../../errors/index.js';
import { operationContext, rawQuery, requestAuth } from '../../operations/request-context.js';
import type { ServiceContext } from '../../service-context.js';
import { isPlainObject } from '../../write/index.js';
import type { PluginRoute } from '../types.js';
import { readAttachRequest } from './attach.js';
import { readFileInfo } from './file-info.js';
import {
  findFile,
  findFiles,
  removeFile,
  replaceFile,
  updateFileInfo,
  uploadFiles,
  type UploadRuntime,
} from './files.js';
import { byName, isMultipart, readMultipart, type IncomingFile } from './multipart.js';

export const UPLOAD_ACTIONS = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

function requireAction(req: Request, action: string): void {
  if (!requestAuth(req).ability.can(action)) throw new ForbiddenError();
}

/** A fresh temporary directory for one request's files, removed whatever happens. */
export async function withWorkDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'content-service-upload-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface UploadBody {
  /** a field sent several times (one `fileInfo` per file) is an array */
  fields: Record<string, unknown>;
  files: IncomingFile[];
}

async function readUploadBody(req: Request, rt: UploadRuntime, dir: string): Promise<UploadBody> {
  if (!isMultipart(req)) return { fields: isPlainObject(req.body) ? req.body : {}, files: [] };
  const body = await readMultipart(req, { sizeLimit: rt.settings.sizeLimit, directory: dir });
  const fields = byName(body.fields.map(({ name, value }) => [name, value] as const));
  return { fields, files: body.files.filter((file) => file.field === 'files') };
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
          const { fields, files } = await readUploadBody(req, rt, workDir);
          if (id !== undefined && files.length === 0)
            return updateFileInfo(ctx, id, readFileInfo(fields.fileInfo, 1)[0] ?? {});
          if (id !== undefined)
            return replaceFile(rt, ctx, id, { files, info: readFileInfo(fields.fileInfo, 1)[0] ?? {}, workDir });
          return uploadFiles(rt, ctx, requestAuth(req), {
            files,
            infos: readFileInfo(fields.fileInfo, files.length),
            attach: readAttachRequest(fields),
            workDir,
          });
        });
        res.status(200).json(answer);
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
        const removed = await removeFile(rt, operationContext(service, req), String(req.params.id));
        if (!removed) throw new NotFoundError('file.notFound');
        res.status(200).json(removed);
      },
    },
  ];
}
