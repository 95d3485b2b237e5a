import { pathToFileURL } from 'node:url';
import { ConfigError } from './config-error.js';

const MISSING_MODULE = /Cannot find (?:module|package) '([^']+)'/;

/** The package a module specifier names: `@scope/name` or `name` (a deep import's package). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function firstLine(message: string): string {
  return (
    message
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? message
  );
}

/**
 * What a module that is not there should say (`requires the package "x", which is not installed:
 * run ...`), whether the app imported it at load time or required it later; undefined for any other error.
 */
export function missingModuleMessage(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const missing = MISSING_MODULE.exec(message)?.[1];
  if ((code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') || !missing) return undefined;
  if (missing.startsWith('.') || missing.startsWith('/')) return `imports "${missing}", which does not exist`;
  const pkg = packageName(missing);
  return `requires the package "${pkg}", which is not installed: run "npm install ${pkg}" in the app directory, or remove what uses it`;
}

/**
 * What an app module that could not be loaded should say: a missing package names the package and
 * the command that installs it; anything else gives the loader's first line.
 */
export function moduleLoadError(displayName: string, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const missing = missingModuleMessage(err);
  if (missing) return new ConfigError(displayName, undefined, missing);
  const message = err instanceof Error ? err.message : String(err);
  return new ConfigError(displayName, undefined, `cannot be loaded: ${firstLine(message)}`);
}

/**
 * Loads an app's JavaScript or TypeScript module (CommonJS or ESM; TypeScript compiled on the fly
 * by tsx, the app's tsconfig honoured) and returns its default export: `export default`,
 * `module.exports`, or a compiled CommonJS module's `exports.default`.
 */
export async function importAppModule(file: string, displayName: string): Promise<unknown> {
  let loaded: unknown;
  try {
    // a dynamic import picks tsx's ESM API even where this module itself was loaded as CommonJS
    const { tsImport } = await import('tsx/esm/api');
    loaded = await tsImport(pathToFileURL(file).href, import.meta.url);
  } catch (err) {
    throw moduleLoadError(displayName, err);
  }
  return defaultExport(loaded);
}

function defaultExport(namespace: unknown): unknown {
  const ns = namespace as { default?: unknown } | null;
  const value = ns && 'default' in ns ? ns.default : namespace;
  const inner = value as { __esModule?: unknown; default?: unknown } | null;
  // a CommonJS module compiled from `export default` carries `{ __esModule: true, default }`
  if (inner && typeof inner === 'object' && inner.__esModule === true && 'default' in inner) return inner.default;
  return value;
}
