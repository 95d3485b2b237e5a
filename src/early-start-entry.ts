import { startEarly, type EarlyStart } from './database/early-start.js';
import { enterAppDir, parseStartOptions } from './start-options.js';

/**
 * For the entry script (bin/content-service.mjs), before it imports the CLI and with it the
 * service's modules: `start`'s configuration is read and its database started, so that the
 * embedded engine opens its data while this thread loads the service. Only the entry script calls
 * it, and each module is loaded once, by the same loader, before and after (a caller of `run()`
 * from CommonJS, as the tests, never begins early). Undefined for any other command, for `--help`
 * and for arguments `run()` will refuse; a failure is left for `run()` to report.
 */
export function beginStart(argv: readonly string[]): Promise<EarlyStart> | undefined {
  const [name, ...rest] = argv;
  if (name !== 'start' || rest.includes('--help') || rest.includes('-h')) return undefined;
  try {
    const options = parseStartOptions(rest);
    enterAppDir(options.appDir);
    const early = startEarly(options);
    early.catch(() => {});
    return early;
  } catch {
    return undefined;
  }
}
