import { beginAppModules } from '../config/load-module.js';
import { loadConfig } from '../config/load-config.js';
import type { ConfigOverrides, ServiceConfig } from '../config/types.js';
import { createLogger, type Logger } from '../logger.js';
import { selectDatabase, type DatabaseHandle } from './select-database.js';

/**
 * The configuration, the logger and the database of a start, begun before the service's own
 * modules load (`content-service start`): the embedded engine's thread boots, reads and decodes
 * its data files on the second core while this thread loads the service, instead of after it.
 * createServer takes it over (CreateServerOptions.early).
 */
export interface EarlyStart {
  config: ServiceConfig;
  logger: Logger;
  /** settles as selectDatabase's; a failure (a locked or damaged data directory) is createServer's to report */
  database: Promise<DatabaseHandle>;
}

export async function startEarly(
  appDir: string,
  overrides: ConfigOverrides,
  options: { memory: boolean; repair?: boolean },
): Promise<EarlyStart> {
  beginAppModules(appDir);
  const config = await loadConfig(appDir, overrides);
  const logger = createLogger(config.env);
  const database = selectDatabase(config, { ...options, logger });
  // awaited by createServer; one that fails before it gets there stops it (stopEarlyDatabase)
  database.catch(() => {});
  return { config, logger, database };
}

/** Stops the database of an early start that createServer did not get to take over (it failed first). */
export async function stopEarlyDatabase(early: EarlyStart): Promise<void> {
  const database = await early.database.catch(() => undefined);
  await database?.stop();
}
