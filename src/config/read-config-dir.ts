import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { ConfigError, MissingModuleError } from './config-error.js';
import { env } from './env-helper.js';
import { templateConfiguration } from './json-template.js';
import { importAppModule, moduleLoadError } from './load-module.js';

/** One configuration file, loaded: its path for messages (relative to the app) and its value. */
export interface ConfigFile {
  file: string;
  value: unknown;
}

/** When one name exists with several extensions, the first of this list is read. */
const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

async function loadFile(path: string, file: string): Promise<unknown> {
  if (path.endsWith('.json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(file, undefined, `is not valid JSON: ${(err as Error).message}`);
    }
    return isPlainObject(parsed) ? templateConfiguration(parsed) : parsed;
  }
  const exported = await importAppModule(path, file);
  if (typeof exported !== 'function') return exported;
  try {
    return await (exported as (args: { env: typeof env }) => unknown)({ env });
  } catch (err) {
    throw moduleLoadError(file, err);
  }
}

/**
 * Files of Strapi settings this service never reads, left out (listed with the settings not used)
 * instead of stopping start-up when they need a package the app has not installed: `config/logger`
 * (winston transports from `@strapi/logger`; the service logs with its own logger) and
 * `config/database` (an SQL connection, often parsed with `pg-connection-string` as Strapi's
 * deployment docs show; the service reads `uri` and `dataDir` only, which no such file sets).
 * Each stands in as what it would have held that is not used.
 */
const UNUSED_FILES: ReadonlyMap<string, () => Record<string, unknown>> = new Map([
  ['logger', () => ({})],
  ['database', () => ({ connection: {} })],
]);

function unusedFileLeftOut(name: string, err: unknown): Record<string, unknown> {
  const standIn = UNUSED_FILES.get(name);
  if (standIn && err instanceof MissingModuleError) return standIn();
  throw err;
}

/**
 * Every configuration file directly in `dir` (`.ts`, `.js`, `.cjs`, `.mjs`, `.json`; not `.d.ts`),
 * loaded as Strapi v4 loads them: a module's default export, called with `{ env }` when it is a
 * function. Keyed by file name without extension; an absent directory gives an empty map.
 */
export async function readConfigDir(appDir: string, dir: string): Promise<Map<string, ConfigFile>> {
  const out = new Map<string, ConfigFile>();
  if (!existsSync(dir)) return out;
  const chosen = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const ext = extname(entry.name);
    if (!entry.isFile() || !EXTENSIONS.includes(ext) || entry.name.endsWith('.d.ts')) continue;
    const name = entry.name.slice(0, -ext.length);
    const previous = chosen.get(name);
    if (previous === undefined || EXTENSIONS.indexOf(ext) < EXTENSIONS.indexOf(extname(previous)))
      chosen.set(name, entry.name);
  }
  for (const [name, fileName] of [...chosen].sort(([a], [b]) => a.localeCompare(b))) {
    const path = join(dir, fileName);
    const file = relative(appDir, path);
    out.set(name, { file, value: await loadFile(path, file).catch((err: unknown) => unusedFileLeftOut(name, err)) });
  }
  return out;
}
