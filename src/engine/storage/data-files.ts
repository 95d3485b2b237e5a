import { closeSync, fsyncSync, openSync, readdirSync, writeSync } from 'node:fs';

/*
 * The files of a data directory (see journal.ts for how they relate):
 *   snapshot.bson        the state at its generation S (first record: meta with S)
 *   journal.<G>.bson     changes made while generation G was current (first record: meta with G)
 *   snapshot.bson.tmp    a snapshot being written (removed at start-up)
 *   journal.bson         the journal of format 1 (no generations), read as generation 0
 *   LOCK                 the pid of the process using the directory
 */
export const SNAPSHOT_FILE = 'snapshot.bson';
export const SNAPSHOT_TMP_FILE = 'snapshot.bson.tmp';
export const LEGACY_JOURNAL_FILE = 'journal.bson';

export function journalFile(generation: number): string {
  return `journal.${generation}.bson`;
}

export interface JournalFile {
  generation: number;
  name: string;
}

/** The journal files of a directory, oldest first. */
export function listJournals(dir: string): JournalFile[] {
  const out: JournalFile[] = [];
  for (const name of readdirSync(dir)) {
    if (name === LEGACY_JOURNAL_FILE) out.push({ generation: 0, name });
    const m = /^journal\.(\d+)\.bson$/.exec(name);
    if (m) out.push({ generation: Number(m[1]), name });
  }
  return out.sort((a, b) => a.generation - b.generation || (a.name === LEGACY_JOURNAL_FILE ? -1 : 1));
}

/** A name for bytes moved aside by a repair: `<file>.damaged-<UTC timestamp>`. */
export function damagedFile(file: string, now = new Date()): string {
  return `${file}.damaged-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `buf` at `position` (or the current position). */
export function writeAll(fd: number, buf: Uint8Array, position?: number): void {
  let written = 0;
  while (written < buf.length) {
    written += writeSync(fd, buf, written, buf.length - written, position === undefined ? null : position + written);
  }
}
