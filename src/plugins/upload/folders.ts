/**
 * The Media Library's folders as Strapi 4.26 stores them (`plugin::upload.folder`, collection
 * `upload_folders`): a file's `folder` and `folderPath` (both private) say where it is. There is no
 * admin panel to make folders here; the one folder the content API makes is Strapi's "API Uploads":
 * files uploaded through `POST /api/upload`, GraphQL's `upload`/`multipleUpload` and
 * `uploadToEntity` go into it, made at the first such upload and remembered in the core store
 * (`plugin_upload_api-folder`), as Strapi does.
 */
import { HIDDEN_FROM_ADMIN, UPLOAD_FILE_UID, type ContentType } from '../../content-types/index.js';
import type { ContentTypeSource } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import { CORE_STORE_COLLECTION } from '../users-permissions/index.js';
import type { OperationContext } from '../../operations/index.js';
import { createEntry, isPlainObject } from '../../write/index.js';

export const UPLOAD_FOLDER_UID = 'plugin::upload.folder';
export const API_UPLOAD_FOLDER_NAME = 'API Uploads';

export const uploadFolderContentType: ContentTypeSource = {
  uid: UPLOAD_FOLDER_UID,
  namespace: 'plugin',
  source: 'plugin upload (built in)',
  schema: {
    kind: 'collectionType',
    collectionName: 'upload_folders',
    info: { singularName: 'folder', pluralName: 'folders', displayName: 'Folder' },
    options: {},
    pluginOptions: HIDDEN_FROM_ADMIN,
    attributes: {
      name: { type: 'string', min: 1, required: true },
      pathId: { type: 'integer', unique: true, required: true },
      parent: { type: 'relation', relation: 'manyToOne', target: UPLOAD_FOLDER_UID, inversedBy: 'children' },
      children: { type: 'relation', relation: 'oneToMany', target: UPLOAD_FOLDER_UID, mappedBy: 'parent' },
      files: { type: 'relation', relation: 'oneToMany', target: UPLOAD_FILE_UID, mappedBy: 'folder' },
      path: { type: 'string', min: 1, required: true },
    },
  },
};

interface FolderDoc {
  name?: unknown;
  path?: unknown;
  pathId?: unknown;
  parent?: unknown;
}

function folders(ctx: OperationContext) {
  return ctx.models.collection(UPLOAD_FOLDER_UID);
}

function folderContentType(ctx: OperationContext): ContentType {
  const found = ctx.registry.contentType(UPLOAD_FOLDER_UID);
  if (!found) throw new Error('the upload plugin folder content-type is not registered');
  return found;
}

async function findFolder(ctx: OperationContext, id: number): Promise<FolderDoc | null> {
  return (await folders(ctx).findOne({ _id: id as never })) as FolderDoc | null;
}

/** A file's `folderPath` in the folder `folder` (an id): `/` without one, as Strapi's file service. */
export async function folderPathOf(ctx: OperationContext, folder: unknown): Promise<string> {
  if (folder === undefined || folder === null || folder === '') return '/';
  const id = typeof folder === 'number' ? folder : Number(folder);
  const found = Number.isSafeInteger(id) && id > 0 ? await findFolder(ctx, id) : null;
  if (!found || typeof found.path !== 'string') throw new ValidationError(`folder ${String(folder)} does not exist`);
  return found.path;
}

/** Strapi's folder service's create at the root: the next `pathId`, `path` `/<pathId>`. */
async function createRootFolder(ctx: OperationContext, name: string): Promise<number> {
  const [last] = (await folders(ctx).find({}).sort({ pathId: -1 }).limit(1).toArray()) as FolderDoc[];
  const pathId = (typeof last?.pathId === 'number' ? last.pathId : 0) + 1;
  return createEntry(ctx, folderContentType(ctx), { name, pathId, path: `/${pathId}` });
}

/** A root folder name not taken yet: `API Uploads`, else `API Uploads (1)`, `(2)`..., as Strapi names it. */
async function freeRootName(ctx: OperationContext): Promise<string> {
  const taken = new Set(
    ((await folders(ctx).find({ parent: null }).toArray()) as FolderDoc[]).map((folder) => folder.name),
  );
  let name = API_UPLOAD_FOLDER_NAME;
  for (let index = 1; taken.has(name); index++) name = `${API_UPLOAD_FOLDER_NAME} (${index})`;
  return name;
}

/** Tries at creating the folder: another instance may take the next `pathId` (unique) first. */
const CREATE_ATTEMPTS = 5;

/**
 * Creates the folder under a name and `pathId` no root folder has. Another instance making its own
 * at the same moment takes the same `pathId` first, at most: the name and `pathId` are chosen again
 * (two folders then, as in Strapi; the core store remembers the later).
 */
async function createFreeRootFolder(ctx: OperationContext): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createRootFolder(ctx, await freeRootName(ctx));
    } catch (error) {
      if (!(error instanceof ValidationError) || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/** Where Strapi remembers the folder: `strapi.store({ type: 'plugin', name: 'upload', key: 'api-folder' })`. */
const API_FOLDER_SETTING = { key: 'plugin_upload_api-folder', environment: null, tag: null };

function coreStore(ctx: OperationContext) {
  return ctx.connection.collection<{ key: string; value?: unknown }>(CORE_STORE_COLLECTION);
}

/** The id of the "API Uploads" folder the core store remembers, if any (it may be gone). */
async function rememberedApiFolder(ctx: OperationContext): Promise<number | undefined> {
  const remembered = (await coreStore(ctx).findOne(API_FOLDER_SETTING))?.value;
  return isPlainObject(remembered) && typeof remembered.id === 'number' ? remembered.id : undefined;
}

async function loadOrCreateApiFolder(ctx: OperationContext): Promise<number> {
  const settings = coreStore(ctx);
  const id = await rememberedApiFolder(ctx);
  if (id !== undefined && (await findFolder(ctx, id))) return id;
  const created = await createFreeRootFolder(ctx);
  await settings.updateOne(API_FOLDER_SETTING, { $set: { value: { id: created } } }, { upsert: true });
  return created;
}

/** One lookup (or creation) at a time per database, so parallel first uploads share one folder. */
const pending = new WeakMap<object, Promise<number>>();

/** The id of the "API Uploads" folder, made when it does not exist (anymore). */
export function apiUploadFolder(ctx: OperationContext): Promise<number> {
  const running = pending.get(ctx.models);
  if (running) return running;
  const lookup = loadOrCreateApiFolder(ctx).finally(() => pending.delete(ctx.models));
  pending.set(ctx.models, lookup);
  return lookup;
}

/**
 * The "API Uploads" folder made again when `folder`, chosen before a file's bytes were stored, is
 * that folder and app code deleted it since (`strapi.db.query('plugin::upload.folder').delete`):
 * the file goes where the next upload would, rather than its upload failing on a relation the
 * client never sent. Undefined for any other folder, or one still there.
 */
export async function apiFolderMadeAgain(ctx: OperationContext, folder: unknown): Promise<number | undefined> {
  if (typeof folder !== 'number' || (await findFolder(ctx, folder))) return undefined;
  return folder === (await rememberedApiFolder(ctx)) ? apiUploadFolder(ctx) : undefined;
}
