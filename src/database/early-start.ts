import { beginAppModules } from '../config/load-module.js';
import { loadConfig } from '../config/load-config.js';
import type { ConfigOverrides, ServiceConfig } from '../config/types.js';
import { createLogger, type Logger } from '../logger.js';
import { selectDatabase, type DatabaseHandle } from './select-database.js';

/**
 * The configuration, the logger and the database of a start begun before the service's own
 * modules load: the embedded engine's thread boots, reads and decodes its data files on another
 * core while the main thread loads the service, instead of after it. createServer takes it over
 * (CreateServerOptions.early).
 */
export interface EarlyStart {
  config: ServiceConfig;
  logger: Logger;
  /** settles as selectDatabase's; a failure (a locked or damaged data directory) is createServer's to report */
  database: Promise<DatabaseHandle>;
}

/** Reads the app's configuration and starts its database (the app directory already entered). */
export async function startEarly(options: {
  appDir: string;
  memory: boolean;
  repair: boolean;
  overrides: ConfigOverrides;
}): Promise<EarlyStart> {
  beginAppModules(options.appDir);
  const config = await loadConfig(options.appDir, options.overrides);
  const logger = createLogger(config.env);
  const database = selectDatabase(config, { memory: options.memory, repair: options.repair, logger });
  // awaited by createServer; a start that fails before it gets there stops it (stopEarlyDatabase)
  database.catch(() => {});
  return { config, logger, database };
}

/** Stops the database of an early start that createServer did not take over (it failed first). */
export async function stopEarlyDatabase(early: EarlyStart): Promise<void> {
  const database = await early.database.catch(() => undefined);
  await database?.stop();
}
