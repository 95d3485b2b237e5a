/**
 * Bytes no file record names, removed from the local provider's directory: what an upload stored
 * before a crash (or a failure) kept its record from being written, and the new bytes of a
 * replacement that never switched its record. Only files older than the grace period go, so an
 * upload in flight (its bytes written, its record not yet committed) is never swept; dotfiles
 * (`.gitkeep`) and anything that is not a name the provider writes stay.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import type { Logger } from '../../logger.js';
import type { Models } from '../../models/index.js';
import { entries, isPlainObject } from '../../write/index.js';
import { isStoredName } from './local-provider.js';
import { pendingNames, PENDING_REPLACEMENT } from './replace-file.js';

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

/** Removes the files of `directory` that no record names and that were last written before `graceMs` ago; answers their names. */
export async function sweepUnrecorded(
  models: Models,
  directory: string,
  graceMs: number,
  logger: Logger,
): Promise<string[]> {
  // the records first: a file whose record is committed after this read was written since, inside the grace period
  const recorded = await recordedNames(models);
  const cutoff = Date.now() - graceMs;
  const listed = await readdir(directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const removed: string[] = [];
  for (const entry of listed) {
    if (!entry.isFile() || !isStoredName(entry.name) || recorded.has(entry.name)) continue;
    const path = join(directory, entry.name);
    const written = await stat(path).then(
      (s) => s.mtimeMs,
      () => Infinity,
    );
    if (written > cutoff) continue;
    await rm(path, { force: true });
    removed.push(entry.name);
  }
  if (removed.length > 0)
    logger.warn(
      { directory, files: removed.slice(0, 50) },
      `upload: removed ${removed.length} file(s) no file record names, written more than ${Math.round(graceMs / 1000)} s ago ` +
        '(an upload or replacement a stop or failure cut off before its record)',
    );
  return removed;
}
