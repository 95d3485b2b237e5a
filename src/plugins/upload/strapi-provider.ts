/**
 * A Strapi v4 upload provider package the app installed (`@strapi/provider-upload-aws-s3`,
 * `-cloudinary`, a community or local package), adapted to this plugin's provider: `init(
 * providerOptions)` once, then Strapi's calls with Strapi's file objects — `uploadStream(file)`
 * with `file.stream` (else `upload(file)` with `file.buffer`), the provider setting `file.url` and
 * maybe `file.provider_metadata` / `file.previewUrl`; `delete(file)` with the record or format as
 * stored; `isPrivate()` and `getSignedUrl(file)` for private buckets. Each method gets its
 * `actionOptions.<method>` as second argument, as in Strapi.
 */
import type { Readable } from 'node:stream';
import type { ProviderModule } from '../provider-packages.js';
import type { ProviderFile, ProviderStored, ProviderUpload, UploadProvider } from './provider.js';
import { bytesToKbytes } from './sizes.js';

export interface StrapiProviderSettings {
  /** as configured (`aws-s3`): kept in each record's `provider` */
  provider: string;
  providerOptions: Record<string, unknown>;
  actionOptions: Record<string, unknown>;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** The object Strapi's upload service hands its provider for a file or one of its formats. */
function strapiFile(file: ProviderUpload): Record<string, unknown> {
  const shared = {
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    width: file.width,
    height: file.height,
    size: bytesToKbytes(file.size),
    sizeInBytes: file.size,
  };
  const described =
    file.format === undefined
      ? {
          name: file.name,
          alternativeText: file.alternativeText ?? null,
          caption: file.caption ?? null,
          folderPath: file.folderPath ?? '/',
          ...shared,
          ...(file.path ? { path: file.path } : {}),
        }
      : { name: file.name, ...shared, path: file.path ?? null };
  return { ...described, getStream: () => file.stream() };
}

/**
 * Initialises the package's provider; `refuse(message)` makes the start-up error for a package
 * that is not one (Strapi's messages for a provider missing its methods).
 */
export function strapiUploadProvider(
  found: ProviderModule,
  settings: StrapiProviderSettings,
  refuse: (message: string) => Error,
): UploadProvider {
  const name = settings.provider;
  if (typeof found.module.init !== 'function')
    throw refuse(`${found.file} is not an upload provider (it has no init function)`);
  // called on the package, as Strapi does: a provider's init may use `this` (the mailgun e-mail provider's does)
  const instance: unknown = Reflect.apply(found.module.init as Method, found.module, [settings.providerOptions]);
  if (!isRecord(instance)) throw refuse(`${found.file}: init() gave no provider object`);
  const method = (key: string): Method | undefined =>
    typeof instance[key] === 'function' ? (instance[key] as Method) : undefined;
  if (!method('delete')) throw refuse(`The upload provider "${name}" doesn't implement the delete method.`);
  if (!method('upload') && !method('uploadStream'))
    throw refuse(`The upload provider "${name}" doesn't implement the uploadStream nor the upload method.`);
  const call = async (key: string, file: Record<string, unknown> | undefined): Promise<unknown> =>
    Reflect.apply(method(key) as Method, instance, [file, settings.actionOptions[key]]);

  const getSignedUrl = method('getSignedUrl');
  const isPrivate = method('isPrivate');
  return {
    name,
    async upload(file: ProviderUpload): Promise<ProviderStored> {
      const handed = strapiFile(file);
      if (method('uploadStream')) {
        handed.stream = file.stream();
        await call('uploadStream', handed);
      } else {
        handed.buffer = await readAll(file.stream());
        await call('upload', handed);
      }
      if (typeof handed.url !== 'string' || handed.url === '')
        throw new Error(`the upload provider "${name}" gave no url for ${file.hash}${file.ext}`);
      return {
        url: handed.url,
        providerMetadata: isRecord(handed.provider_metadata) ? handed.provider_metadata : null,
        ...(typeof handed.previewUrl === 'string' ? { previewUrl: handed.previewUrl } : {}),
      };
    },
    async delete(file: ProviderFile): Promise<void> {
      await call('delete', { ...file.stored });
    },
    ...(getSignedUrl && isPrivate
      ? {
          async isPrivate() {
            return (await call('isPrivate', undefined)) === true;
          },
          async signedUrl(file: Record<string, unknown>) {
            const signed: unknown = await call('getSignedUrl', { ...file });
            const url = isRecord(signed) ? signed.url : undefined;
            if (typeof url !== 'string') throw new Error(`the upload provider "${name}" signed no url`);
            return url;
          },
        }
      : {}),
  };
}
