/**
 * Bytes the local provider stored whose record was never written (a crash, or a failure that
 * could not clean up, between the provider's write and the record's commit). Before it stores a
 * file, an upload or a replacement notes its stored name (`hash`) in `content_service_pending_uploads`,
 * and forgets it once the record is committed or the bytes are deleted again. The sweep removes,
 * for each note older than the grace period, the files of that name (the file and its formats,
 * `<key>_<hash><ext>`) no record names, then the note. It never touches a file it did not note:
 * a directory that holds files of another database (a copy, a service started on a new database)
 * keeps them.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import type { Logger } from '../../logger.js';
import type { Models } from '../../models/index.js';
import { entries, isPlainObject } from '../../write/index.js';
import { isStoredName } from './local-provider.js';
import { pendingUploads } from './pending-uploads.js';
import { pendingNames, PENDING_REPLACEMENT } from './replace-file.js';

/** Whether `name` is the file or a format of the stored name `hash` (`<hash><ext>`, `<key>_<hash><ext>`). */
function isStoredAs(name: string, hash: string): boolean {
  const at = name.indexOf(hash);
  if (at < 0 || (at > 0 && name[at - 1] !== '_')) return false;
  return /^(\.[A-Za-z0-9]{1,16})?$/.test(name.slice(at + hash.length));
}

/** Every name (`<hash><ext>`) a file record stores its bytes under: the file, its formats, a pending replacement's new bytes. */
async function recordedNames(models: Models): Promise<Set<string>> {
  const names = new Set<string>();
  const add = (part: unknown) => {
    if (isPlainObject(part) && typeof part.hash === 'string') names.add(`${part.hash}${String(part.ext ?? '')}`);
  };
  const records = entries(models, UPLOAD_FILE_UID).find(
    {},
    { projection: { hash: 1, ext: 1, formats: 1, [PENDING_REPLACEMENT]: 1 } },
  );
  for await (const record of records) {
    add(record);
    if (isPlainObject(record.formats)) Object.values(record.formats).forEach(add);
    for (const name of pendingNames(record)) names.add(name);
  }
  return names;
}

/**
 * Removes the files of notes older than `graceMs` that no record names and that were last written
 * before then, and those notes; answers the files' names.
 */
export async function sweepUnrecorded(
  models: Models,
  directory: string,
  graceMs: number,
  logger: Logger,
): Promise<string[]> {
  const notes = await pendingUploads(models)
    .find({ at: { $lte: new Date(Date.now() - graceMs) } })
    .toArray();
  if (notes.length === 0) return [];
  const recorded = await recordedNames(models);
  const listed = await readdir(directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const cutoff = Date.now() - graceMs;
  const removed: string[] = [];
  for (const note of notes) {
    // a file still being written (an upload slower than the grace period) keeps its note for the next sweep
    let writing = false;
    for (const entry of listed) {
      const { name } = entry;
      if (!entry.isFile() || !isStoredName(name) || !isStoredAs(name, note.hash) || recorded.has(name)) continue;
      const path = join(directory, name);
      const written = await stat(path).then(
        (s) => s.mtimeMs,
        () => -Infinity,
      );
      if (written > cutoff) writing = true;
      else {
        await rm(path, { force: true });
        removed.push(name);
      }
    }
    if (!writing) await pendingUploads(models).deleteOne({ _id: note._id });
  }
  if (removed.length > 0)
    logger.warn(
      { directory, files: removed.slice(0, 50) },
      `upload: removed ${removed.length} file(s) no file record names, stored more than ${Math.round(graceMs / 1000)} s ago ` +
        '(an upload or replacement a stop or failure cut off before its record)',
    );
  return removed;
}
