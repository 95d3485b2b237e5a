import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { SchemaNotice } from './notices.js';

const CODE_FILE = /\.(js|cjs|mjs|ts)$/;
// the route files are read (lifecycle/route-files.ts), the controllers and services run
// (lifecycle/app-controllers.ts), and the policies and middlewares run where something names them
const API_CODE_FOLDERS = ['middlewares'];
const LISTED = 8;

function listDir(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : [];
}

/** Every code file under `dir`, recursively. */
function codeFiles(dir: string): string[] {
  return listDir(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return codeFiles(path);
    return CODE_FILE.test(entry) ? [path] : [];
  });
}

/**
 * Strapi's generated `createCoreRouter('api::x.x')` / `createCoreController(...)` /
 * `createCoreService(...)` files, with no customisation: they describe exactly what this service
 * serves anyway, so they are not worth a log line.
 */
function isGeneratedCoreFile(file: string): boolean {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const calls = code.match(/createCore(Router|Controller|Service)\s*\(/g) ?? [];
  return (
    calls.length === 1 &&
    /createCore(Router|Controller|Service)\s*\(\s*['"`][^'"`]+['"`]\s*\)/.test(code) &&
    !/=>|\bfunction\b|\basync\b/.test(code)
  );
}

function listed(appDir: string, files: string[]): string {
  const names = files.slice(0, LISTED).map((file) => relative(appDir, file));
  return files.length > LISTED ? `${names.join(', ')} and ${files.length - LISTED} more` : names.join(', ');
}

/**
 * The code a Strapi v4 project carries next to its schemas, which this service does not run:
 * one start-up line per kind (middlewares of the apis that nothing names, plugin extension code,
 * local plugins). `running`: files the service does run (an api's middleware named in
 * `config/middlewares`, the route files, the controllers and services, the extensions of its plugins).
 */
export function customCodeNotices(srcDir: string, running: ReadonlySet<string> = new Set()): SchemaNotice[] {
  const appDir = dirname(srcDir);
  const apis = listDir(join(srcDir, 'api')).map((api) => join(srcDir, 'api', api));
  const apiCode = apis
    .flatMap((api) => API_CODE_FOLDERS.flatMap((folder) => codeFiles(join(api, folder))))
    .filter((file) => !running.has(file) && !isGeneratedCoreFile(file));
  const extensionServers = listDir(join(srcDir, 'extensions'))
    .flatMap((plugin) =>
      listDir(join(srcDir, 'extensions', plugin))
        .filter((entry) => /^strapi-server\.[cm]?[jt]s$/.test(entry))
        .map((entry) => join(srcDir, 'extensions', plugin, entry)),
    )
    .filter((file) => !running.has(file));
  const runningFiles = [...running];
  const localPlugins = listDir(join(srcDir, 'plugins'))
    .map((plugin) => join(srcDir, 'plugins', plugin))
    .filter((dir) => !runningFiles.some((file) => file.startsWith(`${dir}/`)));

  const notices: SchemaNotice[] = [];
  const info = (files: string[], what: string) => {
    if (files.length > 0) notices.push({ level: 'info', message: `${what}: ${listed(appDir, files)}` });
  };
  info(apiCode, 'middlewares of the apis that config/middlewares does not name run only where a route names them');
  info(extensionServers, 'extension code (strapi-server) of plugins this service does not have is not run');
  info(
    localPlugins,
    'local plugins that config/plugins does not declare (resolve) or that have no strapi-server: their content-types are read, no code of theirs runs',
  );
  return notices;
}
