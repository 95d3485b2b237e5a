/**
 * A create or an update sent as multipart/form-data, as Strapi v4's core controllers read it
 * (`parseMultipartData`): the entry's data as JSON text in the `data` field, its files under
 * `files.<media attribute>`. The files are stored first (the upload plugin's provider, size limit
 * and checks), their ids put into the data (a single media takes the last file; a multiple one gets
 * them added to what the data lists, or connected after the entry's own on an update), then the
 * write runs with the entry's usual checks (the attribute's `allowedTypes` among them); a write
 * that fails removes the files it stored, so a refused request changes nothing. As in Strapi, the
 * files need the write's permission, not the upload plugin's.
 */
import type { Request } from 'express';
import type { ContentType } from '../content-types/index.js';
import { AppError, ValidationError } from '../errors/index.js';
import { operationContext, requestAuth } from '../operations/request-context.js';
import {
  readMultipart,
  removeFile,
  uploadFiles,
  uploadRuntime,
  withWorkDir,
  type IncomingFile,
} from '../plugins/upload/index.js';
import type { ServiceContext } from '../service-context.js';
import { isPlainObject } from '../write/index.js';

const NO_DATA = 'When using multipart/form-data you need to provide your data in a JSON "data" field.';
const BAD_DATA = "Invalid 'data' field. 'data' should be a valid JSON.";
const NO_PREFIX =
  "When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\n" +
  'For example, when a media file is named "avatar", make sure the form key name is "files.avatar"';

/** Runs `write` with the `{ data }` a multipart request carries, its files stored and referenced in it. */
export async function multipartWrite<T>(
  service: ServiceContext,
  req: Request,
  ct: ContentType,
  write: (body: { data: Record<string, unknown> }) => Promise<T>,
  /** the `data` field as the app's code left it in `ctx.request.body` (the request's own otherwise) */
  dataField?: () => unknown,
): Promise<T> {
  const rt = uploadRuntime(service);
  if (!rt) throw new ValidationError('A multipart/form-data write needs the upload plugin');
  return withWorkDir(async (workDir) => {
    const body = await readMultipart(req, { sizeLimit: rt.settings.sizeLimit, directory: workDir });
    const data = readData(dataField ? dataField() : body.fields.findLast((f) => f.name === 'data')?.value);
    const byAttribute = filesByAttribute(ct, body.files);
    if (byAttribute.size === 0) return write({ data });
    const ctx = operationContext(service, req);
    const sent = [...byAttribute.values()].flat();
    const stored = await uploadFiles(rt, ctx, requestAuth(req), { files: sent, infos: [], attach: null, workDir });
    const ids = new Map(sent.map((file, i) => [file, stored[i]?.id as number]));
    for (const [name, files] of byAttribute) {
      const newIds = files.map((file) => ids.get(file) as number);
      const attribute = ct.attributes[name];
      data[name] =
        attribute?.type === 'media' && attribute.multiple === true ? withAdded(data[name], newIds) : newIds.at(-1);
    }
    try {
      return await write({ data });
    } catch (err) {
      for (const file of stored) await removeFile(rt, ctx, String(file.id)).catch(() => undefined);
      throw err;
    }
  });
}

/** The entry's data: the `data` field's JSON text (an object the app's code put there is taken as it is). */
function readData(field: unknown): Record<string, unknown> {
  if (field === undefined || field === null) throw new ValidationError(NO_DATA);
  let data: unknown = field;
  if (typeof field === 'string') {
    try {
      data = JSON.parse(field);
    } catch {
      throw new ValidationError(BAD_DATA);
    }
  }
  if (!isPlainObject(data)) throw new ValidationError(BAD_DATA);
  return data;
}

/** The files by the media attribute they go to: `files.<name>`, a media attribute of the content-type. */
function filesByAttribute(ct: ContentType, files: readonly IncomingFile[]): Map<string, IncomingFile[]> {
  const byAttribute = new Map<string, IncomingFile[]>();
  for (const file of files) {
    if (!file.field.startsWith('files.') || file.field.length === 'files.'.length)
      throw new AppError(400, 'BadRequestError', NO_PREFIX);
    const name = file.field.slice('files.'.length);
    if (ct.attributes[name]?.type !== 'media')
      throw new ValidationError(
        name.includes('.')
          ? `${file.field}: files go to a media attribute of ${ct.uid} itself here (not one inside a component); attach the others with POST /api/upload and ref, refId, field`
          : `${file.field}: ${name} is not a media attribute of ${ct.uid}`,
      );
    byAttribute.set(name, [...(byAttribute.get(name) ?? []), file]);
  }
  return byAttribute;
}

/** A multiple media's input with the new files added: to the list given, to its `set`, or connected. */
function withAdded(given: unknown, ids: number[]): unknown {
  if (given === undefined || given === null) return { connect: ids };
  if (Array.isArray(given)) return [...given, ...ids];
  if (isPlainObject(given)) {
    if (Array.isArray(given.set)) return { ...given, set: [...given.set, ...ids] };
    return { ...given, connect: [...(Array.isArray(given.connect) ? given.connect : []), ...ids] };
  }
  return [given, ...ids];
}
