/**
 * Where file bytes live. The upload service hands a provider each stored file (the original and
 * each format) and keeps what it answers in the file's record (`url`, `provider_metadata`); the
 * provider never sees the database. `local` (local-provider.ts) is built in; an S3-style provider
 * implements the same three members.
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
}

export interface ProviderStored {
  /** public address of the file: a path (`/uploads/x.png`) or an absolute URL */
  url: string;
  /** kept as the record's `provider_metadata` (null when the provider needs nothing) */
  providerMetadata: Record<string, unknown> | null;
}

/** What a provider gets back to delete a file: the fields of the record (or of one format). */
export interface ProviderFile {
  hash: string;
  ext: string;
  url: string;
  providerMetadata: unknown;
}

export interface UploadProvider {
  /** stored in each record's `provider` */
  readonly name: string;
  upload(file: ProviderUpload): Promise<ProviderStored>;
  /** removes a stored file; one already gone is not an error */
  delete(file: ProviderFile): Promise<void>;
  /** serves the stored files itself (local storage): mounted at `path`; remote providers have none */
  serve?: { path: string; handler: RequestHandler };
}
