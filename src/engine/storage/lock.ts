import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `DIR/LOCK` (our pid inside); a lock left by a dead process is taken over. Returns the release function. */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'LOCK');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      } catch {
        /* vanished meanwhile */
      }
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
        throw new DataDirLockedError(`data directory ${dir} is in use by process ${pid} (${path})`);
      }
      try {
        unlinkSync(path);
      } catch {
        /* someone else took it over */
      }
    }
  }
  throw new DataDirLockedError(`could not lock data directory ${dir}`);
}

/**
 * Removes `DIR/LOCK` when it names `pid`: for a process whose engine (a worker thread) was
 * terminated before it could release its lock, so the next start in the same process is not refused.
 */
export function releaseLockHeldBy(dir: string, pid: number): void {
  const path = join(dir, 'LOCK');
  try {
    if (Number.parseInt(readFileSync(path, 'utf8'), 10) === pid) unlinkSync(path);
  } catch {
    /* no lock left */
  }
}
