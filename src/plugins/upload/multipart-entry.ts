/**
 * A create or an update sent as multipart/form-data, as Strapi v4's core controllers read it
 * (`parseMultipartData`): the entry's data as JSON text in the `data` field, its files under
 * `files.<path>`: a media attribute of the entry, or of a component in it (`files.seo.image`,
 * `files.links.0.icon`, `files.blocks[1].image`, as Strapi's entity service resolves them). The
 * files are stored first (the upload plugin's provider, size limit and checks), their ids put into
 * the data at their path (a single media takes the last file; a multiple one gets them added to
 * what the data lists, or connected after the stored ones); a component the data does not give is
 * named by its stored id, so the update keeps the rest of it. Then the write runs with the entry's
 * usual checks (the attribute's `allowedTypes` among them); a write that fails removes the files it
 * stored, so a refused request changes nothing. As in Strapi, the files need the write's
 * permission, not the upload plugin's.
 */
import type { Request } from 'express';
import type { Attribute, Component, ContentType, MediaAttribute } from '../../content-types/index.js';
import { AppError, ValidationError } from '../../errors/index.js';
import { operationContext } from '../../operations/request-context.js';
import {
  asFormidable,
  isMultipart,
  readMultipart,
  removeFileAndTell,
  uploadFilesThrough,
  uploadRuntime,
  uploadServiceOf,
  withWorkDir,
  type IncomingFile,
} from './index.js';
import { apiUploadFolder } from './folders.js';
import type { ServiceContext } from '../../service-context.js';
import { entries, isPlainObject, type StoredEntry } from '../../write/index.js';

const NO_DATA = 'When using multipart/form-data you need to provide your data in a JSON "data" field.';
const BAD_DATA = "Invalid 'data' field. 'data' should be a valid JSON.";
const NO_PREFIX =
  "When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\n" +
  'For example, when a media file is named "avatar", make sure the form key name is "files.avatar"';

/** What a write changes: a new entry, the entry of an id, or the single type's entry in a locale. */
export type WriteTarget = { kind: 'create' } | { kind: 'update'; id: string } | { kind: 'single'; locale: unknown };

/**
 * Runs `write` with the request's body: `body` (its JSON), or what its multipart/form-data carries
 * (`data` read from `dataField()` when given: the app's code may have changed `ctx.request.body`).
 */
export function withWriteBody<T>(
  service: ServiceContext,
  req: Request | undefined,
  ct: ContentType,
  target: WriteTarget,
  body: unknown,
  write: (body: unknown) => Promise<T>,
  dataField?: () => unknown,
): Promise<T> {
  return req && isMultipart(req) ? multipartWrite(service, req, ct, target, write, dataField) : write(body);
}

/** Runs `write` with the `{ data }` a multipart request carries, its files stored and referenced in it. */
async function multipartWrite<T>(
  service: ServiceContext,
  req: Request,
  ct: ContentType,
  target: WriteTarget,
  write: (body: { data: unknown }) => Promise<T>,
  dataField?: () => unknown,
): Promise<T> {
  const rt = uploadRuntime(service);
  if (!rt) throw new ValidationError('A multipart/form-data write needs the upload plugin');
  return withWorkDir(async (workDir) => {
    const { sizeLimit, maxFileSize } = rt.settings;
    const body = await readMultipart(req, { sizeLimit, maxFileSize, directory: workDir });
    const data = readData(dataField ? dataField() : body.fields.findLast((f) => f.name === 'data')?.value);
    const keys = fileKeys(body.files);
    // data that is no object is refused by the write as a JSON body's would be, before any file is stored
    if (keys.size === 0 || !isPlainObject(data)) return write({ data });
    const stored = await storedEntry(service, ct, target);
    // every path checked (and the data made ready for it) before a file is stored
    const targets = [...keys].map(([key, files]) => ({ files, target: fileTarget(service, ct, key, data, stored) }));
    const ctx = operationContext(service, req);
    const sent = targets.flatMap((t) => t.files);
    // through the upload service the app may have changed, as Strapi's entity service uploads them
    // into the "API Uploads" folder, as Strapi's uploadToEntity puts them
    const folder = await apiUploadFolder(ctx);
    const uploaded = await uploadFilesThrough(service, rt, uploadServiceOf(service, rt), {
      files: sent.map(asFormidable),
      infos: sent.map(() => ({ folder })),
      metas: {},
    });
    const ids = new Map(sent.map((file, i) => [file, uploaded[i]?.id as number]));
    for (const { files, target } of targets) {
      const newIds = files.map((file) => ids.get(file) as number);
      const { holder, name, attribute } = target;
      holder[name] = attribute.multiple === true ? withAdded(holder[name], newIds) : newIds.at(-1);
    }
    try {
      return await write({ data });
    } catch (err) {
      for (const file of uploaded) await removeFileAndTell(ctx, rt, file.id).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * The entry's data: the `data` field's JSON text (what the app's code put there is taken as it is).
 * JSON that is no object goes to the write as it is, as Strapi's `parseMultipartData` passes it on.
 */
function readData(field: unknown): unknown {
  if (field === undefined || field === null) throw new ValidationError(NO_DATA);
  if (typeof field !== 'string') return field;
  try {
    return JSON.parse(field);
  } catch {
    throw new ValidationError(BAD_DATA);
  }
}

/** The files by their key after `files.` (in the order first sent). */
function fileKeys(files: readonly IncomingFile[]): Map<string, IncomingFile[]> {
  const byKey = new Map<string, IncomingFile[]>();
  for (const file of files) {
    if (!file.field.startsWith('files.') || file.field.length === 'files.'.length)
      throw new AppError(400, 'BadRequestError', NO_PREFIX);
    const key = file.field.slice('files.'.length);
    byKey.set(key, [...(byKey.get(key) ?? []), file]);
  }
  return byKey;
}

/** The stored entry an update writes (components named by id keep their other fields); null for a create. */
async function storedEntry(service: ServiceContext, ct: ContentType, target: WriteTarget): Promise<StoredEntry | null> {
  const collection = entries(service.models, ct.uid);
  if (target.kind === 'single') {
    const locale = typeof target.locale === 'string' ? target.locale : service.i18n?.defaultLocale;
    return collection.findOne(ct.localized && locale ? { locale } : {});
  }
  if (target.kind === 'update' && /^[1-9]\d{0,14}$/.test(target.id))
    return collection.findOne({ _id: Number(target.id) });
  return null;
}

interface FileTarget {
  /** the data object the media attribute is set in */
  holder: Record<string, unknown>;
  name: string;
  attribute: MediaAttribute;
}

/**
 * Where the files of `files.<key>` go: the media attribute the key names, through components
 * (`seo.image`) and items of repeatable components and dynamic zones (`links.0.icon`). The data
 * gets what the path needs: a component it does not give is named by its stored id (a new one on a
 * create), a list it does not give lists the stored items by id.
 */
function fileTarget(
  service: ServiceContext,
  ct: ContentType,
  key: string,
  data: Record<string, unknown>,
  stored: StoredEntry | null,
): FileTarget {
  const segments = key
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');
  const refuse = (why: string) => new ValidationError(`files.${key}: ${why}`);
  let schema: ContentType | Component = ct;
  let holder = data;
  let storedHolder: Record<string, unknown> | null = stored;
  for (let i = 0; i < segments.length - 1; i++) {
    const name = segments[i] as string;
    const attribute: Attribute | undefined = schema.attributes[name];
    if (attribute?.type === 'component' && attribute.repeatable !== true) {
      const storedItem = isPlainObject(storedHolder?.[name]) ? (storedHolder[name] as Record<string, unknown>) : null;
      if (!isPlainObject(holder[name]))
        holder[name] = storedItem && storedItem.id !== undefined ? { id: storedItem.id } : {};
      schema = componentOf(service, attribute.component, refuse);
      holder = holder[name] as Record<string, unknown>;
      storedHolder = storedItem;
      continue;
    }
    if (attribute?.type === 'component' || attribute?.type === 'dynamiczone') {
      const index = segments[++i];
      if (index === undefined || !/^\d+$/.test(index)) throw refuse(`${name} is a list: name an item by its index`);
      const storedList = Array.isArray(storedHolder?.[name]) ? (storedHolder[name] as Record<string, unknown>[]) : [];
      if (!Array.isArray(holder[name]))
        holder[name] = storedList.map((item) =>
          attribute.type === 'dynamiczone' ? { __component: item.__component, id: item.id } : { id: item.id },
        );
      const item = (holder[name] as unknown[])[Number(index)];
      if (!isPlainObject(item)) throw refuse(`${name} has no item ${index}`);
      const uid = attribute.type === 'component' ? attribute.component : item.__component;
      if (typeof uid !== 'string') throw refuse(`item ${index} of ${name} names no __component`);
      schema = componentOf(service, uid, refuse);
      storedHolder = item.id === undefined ? null : (storedList.find((stored) => stored.id === item.id) ?? null);
      holder = item;
      continue;
    }
    throw refuse(`${name} is not a component of ${schema.uid}`);
  }
  const name = segments.at(-1) ?? '';
  const attribute = schema.attributes[name];
  if (attribute?.type !== 'media') throw refuse(`${name} is not a media attribute of ${schema.uid}`);
  return { holder, name, attribute };
}

function componentOf(service: ServiceContext, uid: string, refuse: (why: string) => Error): Component {
  const component = service.registry.component(uid);
  if (!component) throw refuse(`no component ${uid}`);
  return component;
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
