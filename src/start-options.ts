import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ConfigOverrides } from './config/types.js';

/** Wrong arguments: exit code 2, and a pointer to the command's `--help`. */
export class ArgumentError extends Error {}

/** What `content-service start` runs with, from its arguments and the environment. */
export interface StartOptions {
  appDir: string;
  memory: boolean;
  repair: boolean;
  /** the flags that are configuration (`--port`, `--host`, `--data`) */
  overrides: ConfigOverrides;
}

/** Parses `start`'s arguments; wrong ones throw an ArgumentError (or parseArgs' own error). */
export function parseStartOptions(argv: string[]): StartOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      app: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      memory: { type: 'boolean' },
      data: { type: 'string' },
      repair: { type: 'boolean' },
    },
    strict: true,
  });
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new ArgumentError(`--port must be a port number (0 to 65535), got ${values.port}`);
  const dataDir = values.data === undefined ? undefined : resolve(values.data);
  return {
    appDir: resolve(values.app ?? process.env.APP_DIR ?? process.cwd()),
    memory: values.memory ?? false,
    repair: values.repair ?? false,
    overrides: {
      // the server's address is configuration the app's code reads (strapi.config.get('server.port'))
      server: { ...(port !== undefined ? { port } : {}), ...(values.host !== undefined ? { host: values.host } : {}) },
      ...(dataDir ? { database: { dataDir } } : {}),
    },
  };
}

/**
 * Strapi runs in its app directory: relative paths in the app's own code (a bootstrap reading
 * `data/...`) mean the same here.
 */
export function enterAppDir(appDir: string): void {
  try {
    process.chdir(appDir);
  } catch {
    throw new ArgumentError(`the app directory ${appDir} does not exist or cannot be entered (--app or APP_DIR)`);
  }
}
