/**
 * The provider as Strapi 4.26's upload plugin exposes it: `strapi.plugin('upload').provider`
 * (`upload(file)` / `uploadStream(file)` setting the file's `url`, `provider_metadata` and
 * `previewUrl`, `delete(file)`, `checkFileSize(file, { sizeLimit })`, `getSignedUrl(file)`,
 * `isPrivate()`, `extend(methods)`), over the running provider (provider.ts), and the `provider`
 * service (`checkFileSize(file)`, `upload(file)`) that the upload service stores every file and
 * format through: what the app put on the provider object with `extend` takes part.
 */
import { Readable } from 'node:stream';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { bytesOf, numberOf, streamOf, textOf, type FileData } from './file-data.js';
import { assertValidFilename } from './file-names.js';
import type { UploadRuntime } from './files.js';
import { formatKeyOf } from './images.js';
import { bytesToHumanReadable } from './sizes.js';

type Method = (file: FileData, options?: unknown) => Promise<unknown>;

export interface StrapiUploadProvider {
  upload: Method;
  uploadStream: Method;
  delete: Method;
  checkFileSize(file: FileData, options: { sizeLimit?: number }): void;
  getSignedUrl(file: FileData): Promise<unknown>;
  isPrivate(): Promise<boolean>;
  extend(methods: Record<string, unknown>): void;
  [method: string]: unknown;
}

export interface ProviderService {
  checkFileSize(file: FileData): Promise<void>;
  upload(file: FileData): Promise<void>;
}

/** Hands the file's bytes to the running provider and keeps what it answers on the file, as a Strapi provider does. */
async function storeFile(rt: UploadRuntime, file: FileData, stream: () => Readable): Promise<void> {
  const hash = textOf(file, 'hash');
  const ext = textOf(file, 'ext') ?? '';
  if (hash === undefined) throw new ValidationError('upload: the file needs its hash');
  // the hash and extension name the stored file: no path may hide in them
  assertValidFilename(`${hash}${ext}`);
  const format = formatKeyOf(file);
  const path = textOf(file, 'path');
  const stored = await rt.provider.upload({
    hash,
    ext,
    mime: textOf(file, 'mime') ?? 'application/octet-stream',
    size: bytesOf(file),
    stream,
    name: textOf(file, 'name') ?? `${hash}${ext}`,
    width: numberOf(file, 'width'),
    height: numberOf(file, 'height'),
    ...(path !== undefined ? { path } : {}),
    ...(format === undefined
      ? {
          alternativeText: textOf(file, 'alternativeText') ?? null,
          caption: textOf(file, 'caption') ?? null,
          folderPath: textOf(file, 'folderPath') ?? '/',
        }
      : { format }),
  });
  file.url = stored.url;
  if (stored.providerMetadata !== null) file.provider_metadata = stored.providerMetadata;
  if (stored.previewUrl) file.previewUrl = stored.previewUrl;
}

export function createStrapiProvider(rt: UploadRuntime): StrapiUploadProvider {
  return {
    async uploadStream(file) {
      const stream = file.stream;
      if (!(stream instanceof Readable)) throw new ValidationError('uploadStream: the file needs its stream');
      await storeFile(rt, file, () => stream);
    },
    async upload(file) {
      const buffer = file.buffer;
      if (!Buffer.isBuffer(buffer)) throw new ValidationError('upload: the file needs its buffer');
      await storeFile(rt, file, () => Readable.from(buffer));
    },
    async delete(file) {
      const { hash, ext, url } = file;
      if (typeof hash !== 'string' || typeof ext !== 'string' || typeof url !== 'string') return;
      await rt.provider.delete({ hash, ext, url, providerMetadata: file.provider_metadata ?? null, stored: file });
    },
    checkFileSize(file, { sizeLimit }) {
      if (sizeLimit && bytesOf(file) > sizeLimit)
        throw new PayloadTooLargeError(
          `${textOf(file, 'name') ?? 'file'} exceeds size limit of ${bytesToHumanReadable(sizeLimit)}.`,
        );
    },
    async getSignedUrl(file) {
      return rt.provider.signedUrl ? { url: await rt.provider.signedUrl(file) } : file;
    },
    async isPrivate() {
      return (await rt.provider.isPrivate?.()) ?? false;
    },
    extend(methods) {
      Object.assign(this, methods);
    },
  };
}

export function createProviderService(rt: UploadRuntime, provider: StrapiUploadProvider): ProviderService {
  return {
    async checkFileSize(file) {
      await provider.checkFileSize(file, { sizeLimit: rt.settings.sizeLimit });
    },
    async upload(file) {
      const read = () => {
        const stream = streamOf(file);
        if (!stream) throw new ValidationError('upload: the file needs its getStream(), filepath or buffer');
        return stream;
      };
      // as Strapi's: the provider's uploadStream when it has one, else upload with the bytes in memory
      if (typeof provider.uploadStream === 'function') {
        file.stream = read();
        await provider.uploadStream(file);
        delete file.stream;
      } else {
        const chunks: Buffer[] = [];
        for await (const chunk of read()) chunks.push(Buffer.from(chunk as Buffer));
        file.buffer = Buffer.concat(chunks);
        await provider.upload(file);
        delete file.buffer;
      }
      delete file.filepath;
    },
  };
}
