/**
 * Notes of bytes about to be stored (local provider) whose record is not written yet: the upload
 * sweep's only candidates (leftover-sweep.ts says why). An upload or a replacement notes its stored
 * name before the provider writes and forgets it once the record is committed or the bytes are
 * deleted again; a note left behind by a crash names the bytes to sweep.
 */
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { Models } from '../../models/index.js';
import type { UploadRuntime } from './files.js';

export const PENDING_UPLOADS = 'content_service_pending_uploads';

interface PendingUpload {
  _id: string;
  /** the stored name's hash: the file is `<hash><ext>`, its formats `<key>_<hash><ext>` */
  hash: string;
  at: Date;
}

export function pendingUploads(models: Models): Collection<PendingUpload> {
  return models.db().collection<PendingUpload>(PENDING_UPLOADS);
}

/** Notes that bytes named `hash` are about to be stored; the note's id, to forget once they are recorded or deleted. */
export async function notePendingUpload(models: Models, hash: string): Promise<string> {
  const _id = randomUUID();
  await pendingUploads(models).insertOne({ _id, hash, at: new Date() });
  return _id;
}

export async function forgetPendingUpload(models: Models, id: string): Promise<void> {
  // left behind if this fails: swept later, which removes only what no record names
  await pendingUploads(models)
    .deleteOne({ _id: id })
    .catch(() => undefined);
}

/** A note for bytes named `hash` when the local provider stores them (others' bytes are not swept); its id. */
export async function notePending(
  models: Models,
  rt: UploadRuntime,
  hash: string | undefined,
): Promise<string | undefined> {
  if (rt.provider.name !== 'local' || hash === undefined) return undefined;
  return notePendingUpload(models, hash);
}
