/**
 * The upload plugin (Strapi v4 `@strapi/plugin-upload` behaviour): the `plugin::upload.file`
 * content-type behind `media` attributes, the `/api/upload` routes, a storage provider (local by
 * default, served at `/uploads`, or the provider package the app installed), image formats with
 * sharp. See README.md.
 */
import { HIDDEN_FROM_ADMIN, UPLOAD_FILE_UID } from '../../content-types/index.js';
import { UPLOAD_FOLDER_UID, uploadFolderContentType } from './folders.js';
import type { ServiceContext } from '../../service-context.js';
import type { Plugin } from '../types.js';
import { ConfigError, type ServiceConfig } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import { notInstalled, requireProvider, type ProviderModule } from '../provider-packages.js';
import { uploadSettings, type UploadSettings } from './config.js';
import type { UploadRuntime } from './files.js';
import { localProvider } from './local-provider.js';
import type { UploadProvider } from './provider.js';
import { mediaUrlSigner } from './signed-urls.js';
import { strapiUploadProvider } from './strapi-provider.js';
import { uploadRoutes } from './routes.js';
import { ownUploadServices } from './services.js';
import { ensurePendingReplacementIndex } from './replace-file.js';
import { startSweeps, type Sweeps } from './sweeps.js';

export type { UploadRuntime } from './files.js';
export { deleteStored, findFile, findFiles, storedFile } from './files.js';
export { ownUploadServices, uploadServiceOf, type UploadServices } from './services.js';
export { removeFileAndTell, uploadFilesThrough, type UploadService } from './upload-service.js';
export { asFormidable } from './file-data.js';
export type { FileInfo } from './file-info.js';
export { readFileInfo } from './file-info.js';
export { readAttachRequest, resolveAttachTarget } from './attach.js';
export { relatedOfFiles, type RelatedItem } from './related.js';
export {
  byName,
  readMultipart,
  isMultipart,
  isMultipartLeftUnread,
  leaveMultipartUnread,
  type IncomingFile,
  type MultipartBody,
  type MultipartOptions,
} from './multipart.js';
export { UPLOAD_ACTIONS } from './routes.js';
export { withWorkDir } from './work-dir.js';
export { apiUploadFolder, folderPathOf, UPLOAD_FOLDER_UID } from './folders.js';
export type { UploadProvider, ProviderUpload, ProviderStored, ProviderFile } from './provider.js';

/**
 * The provider `config.provider` names: `local`, or the package the app installed. One that is not
 * installed stops a production start; elsewhere files go to local disk until it is, with a warning.
 */
function providerOf(config: ServiceConfig, logger: Logger, settings: UploadSettings): UploadProvider {
  if (settings.provider === 'local') return localProvider(settings.directory);
  const file = config.fileOf('plugins', 'upload.config.provider');
  const refuse = (message: string) => new ConfigError(file, 'upload.config.provider', message);
  let found: ProviderModule | undefined;
  try {
    found = requireProvider(config.appDir, 'upload', settings.provider);
  } catch (err) {
    throw refuse(
      `Could not load upload provider "${settings.provider}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (found) return strapiUploadProvider(found, settings, refuse);
  const missing = notInstalled('upload', settings.provider);
  if (config.env === 'production') throw refuse(missing);
  logger.warn(
    `${file}: ${missing}; until then uploaded files are stored on local disk in ${settings.directory} and served at /uploads`,
  );
  return localProvider(settings.directory);
}

/** The plugin's runtime of a running service (for the GraphQL upload mutations), keyed by its models. */
const runtimes = new WeakMap<object, UploadRuntime>();
export function uploadRuntime(ctx: ServiceContext): UploadRuntime | undefined {
  return runtimes.get(ctx.models);
}
const sweeps = new WeakMap<object, Sweeps>();

export const uploadPlugin: Plugin = {
  name: 'upload',
  checkConfig(config) {
    uploadSettings(config);
  },
  contentTypes: () => [
    {
      uid: UPLOAD_FILE_UID,
      namespace: 'plugin',
      source: 'plugin upload (built in)',
      schema: {
        kind: 'collectionType',
        collectionName: 'files',
        info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
        options: {},
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          name: { type: 'string', configurable: false, required: true },
          alternativeText: { type: 'string', configurable: false },
          caption: { type: 'string', configurable: false },
          width: { type: 'integer', configurable: false },
          height: { type: 'integer', configurable: false },
          formats: { type: 'json', configurable: false },
          hash: { type: 'string', configurable: false, required: true },
          ext: { type: 'string', configurable: false },
          mime: { type: 'string', configurable: false, required: true },
          size: { type: 'decimal', configurable: false, required: true },
          url: { type: 'string', configurable: false, required: true },
          previewUrl: { type: 'string', configurable: false },
          provider: { type: 'string', configurable: false, required: true },
          provider_metadata: { type: 'json', configurable: false },
          folder: {
            type: 'relation',
            relation: 'manyToOne',
            target: UPLOAD_FOLDER_UID,
            inversedBy: 'files',
            private: true,
          },
          folderPath: { type: 'string', min: 1, private: true, searchable: false },
        },
      },
    },
    uploadFolderContentType,
  ],
  register(ctx) {
    const settings = uploadSettings(ctx.config);
    const runtime: UploadRuntime = { settings, provider: providerOf(ctx.config, ctx.logger, settings) };
    runtimes.set(ctx.models, runtime);
    // the services the plugin's paths and the app's code share, made on the service's own context
    ownUploadServices(ctx, runtime);
    const signer = mediaUrlSigner(runtime.provider);
    if (signer) ctx.setMediaUrlSigner(signer);
    ctx.serveRoutes(uploadRoutes(ctx, runtime));
    const serve = runtime.provider.serve;
    if (serve) ctx.rootRouter.use(serve.path, serve.handler);
  },
  async bootstrap(ctx) {
    const runtime = runtimes.get(ctx.models);
    if (!runtime) return;
    await ensurePendingReplacementIndex(ctx.models);
    sweeps.set(ctx.models, await startSweeps(ctx, runtime));
  },
  async stop(ctx) {
    await sweeps.get(ctx.models)?.stop();
    sweeps.delete(ctx.models);
  },
};
