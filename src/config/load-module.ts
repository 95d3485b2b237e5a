import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, MissingModuleError } from './config-error.js';
import {
  resolveStrapiPackagesFallback,
  SERVED_STRAPI_FILES,
  SERVED_USERS_PERMISSIONS_FILES,
} from './strapi-packages.js';

interface TsxCommonJsApi {
  register(options: { namespace: string }): { require(id: string, fromFile: string): unknown };
}
const nodeRequire = createRequire(import.meta.url);
const NAMESPACE = 'content-service-app';
/** tsx's CommonJS loader, in a namespace of its own: what it loads is told apart in the module cache */
const appRequire = (nodeRequire('tsx/cjs/api') as TsxCommonJsApi).register({ namespace: NAMESPACE });
resolveStrapiPackagesFallback();
loadPackagesPlainly();

/**
 * The app's modules loaded from now on are loaded afresh: a service's files share their modules'
 * state, and the next service built in this process from the same directory (tests) starts clean.
 * Only what the app loader loaded goes (packages the app requires itself stay cached).
 */
export function beginAppModules(appDir: string): void {
  const root = resolve(appDir) + sep;
  for (const key of Object.keys(nodeRequire.cache))
    if (key.startsWith(root) && key.endsWith(`?namespace=${NAMESPACE}`)) delete nodeRequire.cache[key];
}

const packageTypes = new Map<string, string | undefined>();

/** `type` of the package.json nearest to `dir` (undefined: CommonJS). */
function packageType(dir: string): string | undefined {
  if (packageTypes.has(dir)) return packageTypes.get(dir);
  const file = join(dir, 'package.json');
  let type: string | undefined;
  if (existsSync(file)) {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown };
      type = typeof parsed.type === 'string' ? parsed.type : undefined;
    } catch {
      type = undefined;
    }
  } else type = dirname(dir) === dir ? undefined : packageType(dirname(dir));
  packageTypes.set(dir, type);
  return type;
}

/**
 * Whether a file is an ES module as Node reads it: `.mjs`/`.mts`, or in a package of `"type": "module"`.
 * Everything else runs as CommonJS, as Strapi v4 runs a project (its TypeScript compiled to
 * CommonJS): `__dirname`, `require` and `module.exports` are the module's own.
 */
function isEsModule(file: string): boolean {
  return /\.m[jt]s$/.test(file) || (!/\.c[jt]s$/.test(file) && packageType(dirname(file)) === 'module');
}

/** Node's CommonJS resolver, which `@types/node` does not describe */
interface CommonJsResolver {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

const NAMESPACE_QUERY = `?namespace=${NAMESPACE}`;

/**
 * The CommonJS files of the packages an app requires (under a `node_modules` folder) load as Node
 * loads them, outside tsx's namespace: there every resolved path carries `?namespace=…`, also what
 * `require.resolve` answers, and a package that reads its own files through that path fails
 * (uglify-js reads its `lib/*.js` so: ENOENT). ES modules stay with tsx, which lets CommonJS
 * require them; the app's own files stay namespaced (beginAppModules).
 */
function loadPackagesPlainly(): void {
  const resolver = nodeRequire('node:module') as CommonJsResolver;
  const original = resolver._resolveFilename.bind(resolver);
  resolver._resolveFilename = (request, parent, isMain, options) => {
    const resolved = original(request, parent, isMain, options);
    if (!resolved.endsWith(NAMESPACE_QUERY)) return resolved;
    const file = resolved.slice(0, -NAMESPACE_QUERY.length);
    const inPackage = file.includes(`${sep}node_modules${sep}`);
    return inPackage && /\.c?js$/.test(file) && !isEsModule(file) ? file : resolved;
  };
}

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
  // `@strapi/strapi/lib/services/entity-service`: Strapi's own files, which no install here brings
  if (pkg === '@strapi/strapi' && missing !== pkg)
    return (
      `requires "${missing}", a file inside Strapi itself: Content Service answers require("@strapi/strapi") ` +
      `with its factories and offers ${SERVED_STRAPI_FILES.join(', ')} only; use what the strapi object offers (strapi.entityService, strapi.service(uid)...) or remove what uses it`
    );
  // the plugin is served here, and 4.26's package exports none of its server files anyway
  if (pkg === '@strapi/plugin-users-permissions' && missing !== pkg)
    return (
      `requires "${missing}", a file of the users-permissions plugin that Content Service does not offer ` +
      `(it offers ${SERVED_USERS_PERMISSIONS_FILES.join(', ')}): use strapi.plugin('users-permissions') or remove what uses it`
    );
  return `requires the package "${pkg}", which is not installed: run "npm install ${pkg}" in the app directory, or remove what uses it`;
}

/**
 * What an app module that could not be loaded should say: a missing package names the package and
 * the command that installs it; anything else gives the loader's first line.
 */
export function moduleLoadError(displayName: string, err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const missing = missingModuleMessage(err);
  if (missing) return new MissingModuleError(displayName, undefined, missing);
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
    if (isEsModule(file)) {
      // a dynamic import picks tsx's ESM API even where this module itself was loaded as CommonJS
      const { tsImport } = await import('tsx/esm/api');
      loaded = await tsImport(pathToFileURL(file).href, import.meta.url);
    } else {
      loaded = appRequire.require(file, file);
    }
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
