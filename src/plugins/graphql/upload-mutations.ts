/**
 * The upload plugin's GraphQL fields, as Strapi v4 generates them: `upload`, `multipleUpload`,
 * `updateFileInfo`, `removeFile` (through the upload service the app may have changed, as Strapi's
 * resolvers call it; files from multipart requests), and its permission scopes on the `UploadFile` shadow CRUD (`uploadFiles` needs
 * `plugin::upload.content-api.find`, ...). `deleteUploadFile` removes the stored bytes too.
 */
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import {
  apiUploadFolder,
  asFormidable,
  deleteStored,
  readAttachRequest,
  resolveAttachTarget,
  storedFile,
  uploadFilesThrough,
  uploadRuntime,
  uploadServiceOf,
  UPLOAD_ACTIONS,
  type FileInfo,
  type UploadRuntime,
} from '../upload/index.js';
import { readEntry, type PlainEntry } from '../../query/index.js';
import { operationContext, type GraphQLContext } from './context.js';
import { isRecord, plain } from './values.js';
import { UploadValue } from './upload-multipart.js';
import type { RootField } from './shadow-crud.js';

type Args = Record<string, unknown>;

function runtime(ctx: GraphQLContext): UploadRuntime {
  const rt = uploadRuntime(ctx.service);
  if (!rt) throw new ValidationError('The upload plugin is not enabled');
  return rt;
}

function uploads(value: unknown, name: string): UploadValue[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (!(item instanceof UploadValue))
      throw new ValidationError(`${name} must be a file sent as a multipart request (graphql-multipart-request-spec)`);
    return item;
  });
}

function fileInfo(value: unknown): FileInfo {
  const info = isRecord(value) ? (plain(value) as Record<string, unknown>) : {};
  const pick = (key: string) =>
    typeof info[key] === 'string' || info[key] === null ? (info[key] as string | null) : undefined;
  return { name: pick('name'), alternativeText: pick('alternativeText'), caption: pick('caption') };
}

const entity = (file: PlainEntry) => ({ data: { id: file.id, attributes: file } });

/** Strapi's resolvers: each file formatted (here: enhanced and checked), then each through `uploadFileAndPersist`. */
async function upload(args: Args, ctx: GraphQLContext, files: UploadValue[], infos: FileInfo[]) {
  const rt = runtime(ctx);
  const attach = readAttachRequest({ ref: args.ref, refId: args.refId, field: args.field });
  // the caller may change the entry the files go into (Strapi does not check this)
  if (attach) await resolveAttachTarget(operationContext(ctx), ctx.auth, attach);
  // as Strapi's resolvers: the files go into the "API Uploads" folder
  const folder = await apiUploadFolder(operationContext(ctx));
  return uploadFilesThrough(ctx.service, rt, uploadServiceOf(ctx.service, rt), {
    files: files.map((f) => asFormidable(f.file)),
    infos: infos.map((info) => ({ ...info, folder })),
    metas: attach ? { ...attach } : {},
  });
}

export function uploadMutations(): Record<string, RootField> {
  return {
    upload: {
      type: 'UploadFileEntityResponse!',
      args: { refId: 'ID', ref: 'String', field: 'String', info: 'FileInfoInput', file: 'Upload!' },
      action: UPLOAD_ACTIONS.upload,
      resolve: async (_p, args, ctx) => {
        const [file] = await upload(args, ctx, uploads(args.file, 'file'), [fileInfo(args.info)]);
        return file ? entity(file) : { data: null };
      },
    },
    multipleUpload: {
      type: '[UploadFileEntityResponse]!',
      args: { refId: 'ID', ref: 'String', field: 'String', files: '[Upload]!' },
      action: UPLOAD_ACTIONS.upload,
      resolve: async (_p, args, ctx) => {
        // an empty list uploads nothing and answers so, as Strapi
        if (Array.isArray(args.files) && args.files.length === 0) return [];
        const files = uploads(args.files, 'files');
        return (
          await upload(
            args,
            ctx,
            files,
            files.map(() => ({})),
          )
        ).map(entity);
      },
    },
    updateFileInfo: {
      type: 'UploadFileEntityResponse!',
      args: { id: 'ID!', info: 'FileInfoInput' },
      action: UPLOAD_ACTIONS.upload,
      resolve: async (_p, args, ctx) =>
        entity(
          await uploadServiceOf(ctx.service, runtime(ctx)).updateFileInfo(String(args.id), { ...fileInfo(args.info) }),
        ),
    },
    removeFile: {
      type: 'UploadFileEntityResponse',
      args: { id: 'ID!' },
      action: UPLOAD_ACTIONS.destroy,
      resolve: async (_p, args, ctx) => {
        const id = String(args.id);
        const file = /^[1-9]\d{0,14}$/.test(id)
          ? await readEntry(operationContext(ctx), UPLOAD_FILE_UID, { _id: Number(id) }, {}, { style: 'plain' })
          : null;
        if (!file) return null;
        // null: a parallel removal took it first, as if it had not been there
        if ((await uploadServiceOf(ctx.service, runtime(ctx)).remove(file)) === null) return null;
        return entity(file);
      },
    },
  };
}

/** Strapi's scopes for the `UploadFile` shadow CRUD, by root field. */
export const UPLOAD_FILE_CRUD_ACTIONS: Record<string, string> = {
  'Query.uploadFiles': UPLOAD_ACTIONS.find,
  'Query.uploadFile': UPLOAD_ACTIONS.findOne,
  'Mutation.createUploadFile': UPLOAD_ACTIONS.upload,
  'Mutation.updateUploadFile': UPLOAD_ACTIONS.upload,
  'Mutation.deleteUploadFile': UPLOAD_ACTIONS.destroy,
};

/** `deleteUploadFile` answers like the shadow CRUD delete, and also removes the bytes and formats. */
export function withStoredBytesRemoval(fields: Record<string, RootField>): Record<string, RootField> {
  const remove = fields.deleteUploadFile;
  if (!remove) return fields;
  return {
    ...fields,
    deleteUploadFile: {
      ...remove,
      resolve: async (parent, args, ctx, info) => {
        const record = await storedFile(ctx.service, String(args.id));
        const answer: unknown = await remove.resolve(parent, args, ctx, info);
        if (record) await deleteStored(runtime(ctx), record);
        return answer;
      },
    },
  };
}
