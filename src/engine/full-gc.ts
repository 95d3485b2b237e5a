import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Runs V8's full garbage collection now, returning what it frees to the system. For the end of a
 * burst that leaves much garbage in the old generation (building the indexes of a loaded
 * collection): V8 would otherwise keep those pages until the heap grows to its next limit, and
 * that is resident memory. Node gives no API for it outside `--expose-gc`, which workers cannot
 * be started with; the flag set at run time exposes `gc` to contexts created after it.
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
