/**
 * Where file bytes live. The upload service hands a provider each stored file (the original and
 * each format) and keeps what it answers in the file's record (`url`, `provider_metadata`); the
 * provider never sees the database. `local` (local-provider.ts) is built in; the providers a Strapi
 * v4 app installs (`@strapi/provider-upload-aws-s3`, cloudinary...) are adapted by strapi-provider.ts.
 */
import type { Readable } from 'node:stream';
import type { RequestHandler } from 'express';

/** One file to store: `<hash><ext>` is its unique name. */
export interface ProviderUpload {
  hash: string;
  /** with its dot, e.g. `.png` */
  ext: string;
  mime: string;
  /** in bytes */
  size: number;
  /** the bytes, read once */
  stream(): Readable;
  /** what Strapi also hands its providers: the file's name (a format's: `<key>_<name>`), image size */
  name: string;
  width: number | null;
  height: number | null;
  /** the format's key (`thumbnail`, `large`...) when this is a format of the file */
  format?: string;
  /** the `path` the upload was given (a prefix for remote storage; null for a format without one) */
  path?: string | null;
  /** the original's Media Library folder path (`/`, `/1`...; absent for formats) */
  folderPath?: string;
  /** the original's info (absent for formats) */
  alternativeText?: string | null;
  caption?: string | null;
}

export interface ProviderStored {
  /** public address of the file: a path (`/uploads/x.png`) or an absolute URL */
  url: string;
  /** kept as the record's `provider_metadata` (null when the provider needs nothing) */
  providerMetadata: Record<string, unknown> | null;
  /** a preview the provider made (Strapi keeps it as the record's `previewUrl`) */
  previewUrl?: string | null;
}

/** What a provider gets back to delete a file: the fields of the record (or of one format). */
export interface ProviderFile {
  hash: string;
  ext: string;
  url: string;
  providerMetadata: unknown;
  /** the record (or the format) as stored, which Strapi's providers are given to delete */
  stored: Record<string, unknown>;
}

export interface UploadProvider {
  /** stored in each record's `provider` */
  readonly name: string;
  upload(file: ProviderUpload): Promise<ProviderStored>;
  /** removes a stored file; one already gone is not an error */
  delete(file: ProviderFile): Promise<void>;
  /**
   * A private provider's signed address of a stored file (or format), answered instead of its
   * `url` on reads; absent: the stored `url` is public.
   */
  signedUrl?(file: Record<string, unknown>): Promise<string>;
  /** whether reads answer signed addresses now (Strapi asks its provider on each read) */
  isPrivate?(): Promise<boolean>;
  /**
   * Puts the bytes stored as `from` under the name of `to`, replacing what `to` holds at once (a
   * rename on local storage): a replacement keeps its url this way. Absent: a replaced file gets
   * the new name (remote storage, where a name cannot be swapped for another atomically).
   */
  moveOver?(from: { hash: string; ext: string }, to: { hash: string; ext: string }): Promise<void>;
  /** serves the stored files itself (local storage): mounted at `path`; remote providers have none */
  serve?: { path: string; handler: RequestHandler };
}
