import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './config-error.js';

export type ConfigValue = Record<string, unknown>;

const env = (name: string, fallback?: string) => process.env[name] ?? fallback;

/**
 * Reads `config/<name>.json|.js|.ts` of an app. A JS/TS module may export an object or, as in
 * Strapi, a function `({ env }) => object`. Returns undefined when there is no such file.
 */
export async function readConfigFile(
  appDir: string,
  name: string,
): Promise<{ file: string; value: ConfigValue } | undefined> {
  for (const ext of ['json', 'js', 'mjs', 'ts']) {
    const file = join(appDir, 'config', `${name}.${ext}`);
    if (!existsSync(file)) continue;
    let value: unknown;
    try {
      if (ext === 'json') {
        value = JSON.parse(await readFile(file, 'utf8'));
      } else {
        const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
        value = mod.default ?? mod;
        if (typeof value === 'function') value = (value as (a: { env: typeof env }) => unknown)({ env });
      }
    } catch (err) {
      throw new ConfigError(file, undefined, `cannot be read: ${(err as Error).message}`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new ConfigError(file, undefined, 'must be an object');
    return { file, value: value as ConfigValue };
  }
  return undefined;
}
