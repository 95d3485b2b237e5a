/**
 * A multipart/form-data request as Strapi's `strapi::body` (koa-body with formidable 2) gives it to
 * the app's own handlers: its text fields in `ctx.request.body` (a field sent several times: an
 * array) and its files in `ctx.request.files`, by field name (several: an array), each with
 * formidable's `filepath`, `originalFilename`, `newFilename`, `mimetype` and `size`. Read before an
 * app route or controller action runs (never before the service's own routes, which read the
 * stream themselves); the files are removed once the response is done.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Request, Response } from 'express';
import {
  byName,
  isMultipart,
  isMultipartLeftUnread,
  readMultipart,
  type IncomingFile,
} from '../plugins/upload/index.js';

export interface FormidableFile {
  filepath: string;
  originalFilename: string;
  newFilename: string;
  mimetype: string;
  size: number;
}

export type RequestFiles = Record<string, FormidableFile | FormidableFile[]>;

const requestFiles = new WeakMap<Request, RequestFiles>();

/** `ctx.request.files`: undefined unless the request was multipart and read for the app. */
export function filesOf(req: Request): RequestFiles | undefined {
  return requestFiles.get(req);
}

function formidableFile(file: IncomingFile): FormidableFile {
  return {
    filepath: file.path,
    originalFilename: file.filename,
    newFilename: basename(file.path),
    mimetype: file.declaredMime,
    size: file.size,
  };
}

/** Reads a multipart request's fields and files for the app's handler; any other request is left alone. */
/** `maxFileSize`: the file bytes the request may carry (`strapi::body`'s; the upload plugin's `sizeLimit` is not koa-body's). */
export async function readMultipartForApp(req: Request, res: Response, maxFileSize: number): Promise<void> {
  if (!isMultipart(req) || requestFiles.has(req)) return;
  // `strapi::body` with `multipart: false`: koa-body's `{}` and no `ctx.request.files`
  if (isMultipartLeftUnread(req)) {
    if (req.body === undefined) req.body = {};
    return;
  }
  const directory = await mkdtemp(join(tmpdir(), 'content-service-form-'));
  res.on('close', () => void rm(directory, { recursive: true, force: true }));
  const body = await readMultipart(req, { maxFileSize, directory });
  const holder = req as { body?: unknown };
  if (
    holder.body === undefined ||
    (typeof holder.body === 'object' && holder.body !== null && Object.keys(holder.body).length === 0)
  )
    holder.body = byName(body.fields.map((field) => [field.name, field.value] as const));
  requestFiles.set(req, byName(body.files.map((file) => [file.field, formidableFile(file)] as const)));
}
