/**
 * A file's bytes replaced (`POST /api/upload?id=`, the upload service's `replace`) so that a failure
 * at any step leaves the file the client had, record, bytes and formats, served as before:
 * 1. the new bytes and formats are stored under a name of their own (nothing of the old file is touched);
 * 2. under the file's lease, the record is switched to them, in one transaction with a marker
 *    (`__replace` on the record) naming what is left to do;
 * 3. after the commit, the new bytes are moved over the old names (local storage, so the url stays
 *    as Strapi keeps it; elsewhere the file keeps the new name) and the old bytes the new record no
 *    longer names are deleted; then the marker goes.
 * A failure before the commit deletes the new bytes. A service that dies after the commit leaves
 * the marker: `settlePendingReplacements` finishes step 3 at the next start (and with each sweep).
 * Without transactions the marker is written after the record (a crash between the two leaves the
 * new record over the old bytes, still served, rather than new bytes under the old record).
 */
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import { NotFoundError } from '../../errors/index.js';
import type { Logger } from '../../logger.js';
import type { Models } from '../../models/index.js';
import type { PlainEntry } from '../../query/index.js';
import { asOneTransaction, entries, isPlainObject, withLease, type StoredEntry } from '../../write/index.js';
import type { FileData } from './file-data.js';
import { textOf } from './file-data.js';
import { fileHash } from './file-names.js';
import { deleteStored, type UploadRuntime } from './files.js';
import { forgetPendingUpload, notePending } from './pending-uploads.js';

/** The record's field holding a replacement committed but not yet settled. */
export const PENDING_REPLACEMENT = '__replace';

/**
 * The records with a pending replacement, as the sweep looks them up: a range on the token (a
 * string) that leaves records without one out, so the sparse index below serves it (an `$exists`
 * would read every file record, hourly and at every start).
 */
export const PENDING_REPLACEMENT_FILTER = { [`${PENDING_REPLACEMENT}.token`]: { $gt: '' } };

/** The index of the few file records with a pending replacement (sparse: the others have no entry). */
export async function ensurePendingReplacementIndex(models: Models): Promise<void> {
  await entries(models, UPLOAD_FILE_UID).createIndex(
    { [`${PENDING_REPLACEMENT}.token`]: 1 },
    { sparse: true, name: 'pending_replacement' },
  );
}

interface StoredName {
  hash: string;
  ext: string;
}

/** What is left to do once a replacement's record is committed. */
interface PendingReplacement {
  /** the new bytes' own name (the original's): tells this replacement from a later one */
  token: string;
  /** new bytes to move over the old names (local storage) */
  moves: Array<{ from: StoredName; to: StoredName }>;
  /** the old parts the new record no longer names, as a record for `deleteStored` */
  obsolete: Record<string, unknown>;
}

/** How the caller (the upload service, through the app's methods) stores bytes and changes the record. */
export interface ReplaceSteps {
  /** stores the file and its formats through the provider (image formats included) */
  store(fileData: FileData): Promise<void>;
  /** the record's change (Strapi's `update`, with the app's hooks) */
  update(fileData: FileData): Promise<PlainEntry>;
}

const notFound = () => new NotFoundError('Entity not found');

/** Replaces the bytes of file `file.id` with `fileData` (enhanced and checked already). */
export async function replaceFile(
  models: Models,
  rt: UploadRuntime,
  logger: Logger,
  file: { id: number; ext: string },
  fileData: FileData,
  steps: ReplaceSteps,
): Promise<PlainEntry> {
  // the ext stays (Strapi keeps the url); the name is new, so the old bytes stay untouched
  const token = fileHash(textOf(fileData, 'name') ?? 'file', file.ext);
  Object.assign(fileData, { hash: token, ext: file.ext, formats: {} });
  // until the record names them (or they are deleted again), bytes a crash would leave are the sweep's
  const note = await notePending(models, rt, token);
  const forget = () => (note ? forgetPendingUpload(models, note) : Promise.resolve());
  const discard = async () => {
    await deleteStored(rt, { ...fileData, provider: rt.provider.name }).catch(() => undefined);
    await forget();
  };
  try {
    await steps.store(fileData);
  } catch (error) {
    await discard();
    throw error;
  }
  // what the new bytes do not have (dimensions, a preview) is not kept from the old ones
  for (const key of ['width', 'height', 'previewUrl', 'provider_metadata']) fileData[key] ??= null;
  fileData.provider = rt.provider.name;
  const files = entries(models, UPLOAD_FILE_UID);
  let committed = false;
  try {
    return await withLease(models, UPLOAD_FILE_UID, file.id, notFound, async () => {
      const record = await files.findOne({ _id: file.id });
      if (!record) throw notFound();
      const { data, pending } = planSwitch(rt, record, fileData, token);
      const mark = () => files.updateOne({ _id: file.id }, { $set: { [PENDING_REPLACEMENT]: pending } });
      const updated = await asOneTransaction(
        models,
        async (transactional) => {
          if (transactional) await mark();
          const answer = await steps.update(data);
          if (transactional) return answer;
          // the record names the new bytes from here on: they are no longer this replacement's to delete
          committed = true;
          await forget();
          await mark();
          return answer;
        },
        async () => {
          committed = true;
          await forget();
          await settle(models, rt, file.id, token).catch((error: unknown) =>
            logger.error({ err: error, file: file.id }, 'upload: a replaced file is left to settle at the next sweep'),
          );
        },
      );
      return updated;
    });
  } catch (error) {
    if (!committed) await discard();
    throw error;
  }
}

/** The record's new values (the new bytes under their final names) and what is left to do after the commit. */
function planSwitch(
  rt: UploadRuntime,
  record: StoredEntry,
  staged: FileData,
  token: string,
): { data: FileData; pending: PendingReplacement } {
  const stagedFormats = isPlainObject(staged.formats) ? staged.formats : {};
  const oldFormats = isPlainObject(record.formats) ? record.formats : {};
  if (!rt.provider.moveOver || record.provider !== rt.provider.name || typeof record.hash !== 'string') {
    const { _id, ...old } = record;
    return { data: staged, pending: { token, moves: [], obsolete: { ...old, id: _id } } };
  }
  const recordHash = record.hash;
  const moves: PendingReplacement['moves'] = [];
  const finalNames = new Set<string>();
  const moved = (part: Record<string, unknown>, oldUrl: unknown): Record<string, unknown> => {
    const from = { hash: String(part.hash), ext: String(part.ext) };
    const to = { hash: from.hash.replace(token, recordHash), ext: from.ext };
    moves.push({ from, to });
    finalNames.add(`${to.hash}${to.ext}`);
    const url =
      typeof oldUrl === 'string' ? oldUrl : String(part.url).replace(`${from.hash}${from.ext}`, `${to.hash}${to.ext}`);
    return { ...part, hash: to.hash, url };
  };
  const formats = Object.fromEntries(
    Object.entries(stagedFormats).map(([key, format]) => [
      key,
      isPlainObject(format) ? moved(format, isPlainObject(oldFormats[key]) ? oldFormats[key].url : undefined) : format,
    ]),
  );
  const data: FileData = { ...staged, ...moved(staged, record.url), formats };
  // old formats the new file does not have: no move replaces them
  const obsoleteFormats = Object.fromEntries(
    Object.entries(oldFormats).filter(
      ([, format]) => !isPlainObject(format) || !finalNames.has(`${String(format.hash)}${String(format.ext)}`),
    ),
  );
  return { data, pending: { token, moves, obsolete: { provider: record.provider, formats: obsoleteFormats } } };
}

/**
 * Finishes the replacement `token` of file `id` if its marker is still there (under the file's
 * lease, so never beside a living replacement of it): each step may run again after a crash.
 */
async function settle(models: Models, rt: UploadRuntime, id: number, token?: string): Promise<boolean> {
  return withLease(models, UPLOAD_FILE_UID, id, notFound, async () => {
    const files = entries(models, UPLOAD_FILE_UID);
    const record = await files.findOne({ _id: id }, { projection: { [PENDING_REPLACEMENT]: 1 } });
    const pending = record?.[PENDING_REPLACEMENT] as PendingReplacement | undefined;
    if (!pending || (token !== undefined && pending.token !== token)) return false;
    for (const { from, to } of pending.moves)
      await rt.provider.moveOver?.(from, to).catch((error: unknown) => {
        // moved already, by the run a crash cut short
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    await deleteStored(rt, pending.obsolete);
    await files.updateOne(
      { _id: id, [`${PENDING_REPLACEMENT}.token`]: pending.token },
      { $unset: { [PENDING_REPLACEMENT]: '' } },
    );
    return true;
  });
}

/** Settles every replacement a stopped service committed but did not finish; answers how many. */
export async function settlePendingReplacements(models: Models, rt: UploadRuntime, logger: Logger): Promise<number> {
  const marked = await entries(models, UPLOAD_FILE_UID)
    .find(PENDING_REPLACEMENT_FILTER, { projection: { _id: 1 } })
    .toArray();
  let settled = 0;
  for (const { _id } of marked) {
    try {
      if (await settle(models, rt, _id)) settled++;
    } catch (error) {
      if (!(error instanceof NotFoundError))
        logger.error({ err: error, file: _id }, 'upload: could not finish an interrupted replacement');
    }
  }
  if (settled > 0) logger.info(`upload: finished ${settled} file replacement(s) a stopped service had committed`);
  return settled;
}

/** The stored names (`<hash><ext>`) a pending replacement still needs: its new bytes before they move. */
export function pendingNames(record: Record<string, unknown>): string[] {
  const pending = record[PENDING_REPLACEMENT] as PendingReplacement | undefined;
  return (pending?.moves ?? []).map(({ from }) => `${from.hash}${from.ext}`);
}
