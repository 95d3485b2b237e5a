import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import merge from 'lodash/merge.js';
import { ConfigError } from './config-error.js';
import type { ServiceConfig } from './types.js';

type Section = Record<string, unknown>;

function isObject(value: unknown): value is Section {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const trimSlashes = (value: string) => value.replace(/^[\s/]+|[\s/]+$/g, '');

/**
 * An absolute (`http...`) URL as Strapi's `getConfigUrls` keeps it (parsed, no trailing slash), or a
 * path with one leading slash ('' for none).
 */
function normalisedUrl(value: string, invalid: () => ConfigError): string {
  const trimmed = trimSlashes(value);
  if (trimmed.startsWith('http')) {
    try {
      return new URL(trimmed).toString().replace(/\/+$/, '');
    } catch {
      throw invalid();
    }
  }
  return trimmed === '' ? '' : `/${trimmed}`;
}

/**
 * The configuration tree as `strapi.config` answers it once Strapi's bootstrap ran: `server.host`
 * and `server.port` are where the service listens (PORT, HOST, `--port`, `--host` included; with no
 * host set, Strapi's default, `os.hostname()`, while the service listens on every address), also
 * as the top-level `host` and `port`; `server.url`, `admin.url` and `admin.path` are Strapi's
 * normalised URLs (`getConfigUrls`: '' when no `server.url` is set, `/admin` under it).
 */
export function serverTree(config: ServiceConfig): Record<string, unknown> {
  const tree = merge({}, rootValues(config.appDir), STRAPI_DEFAULTS, config.tree) as Section;
  const server = isObject(tree.server) ? tree.server : {};
  const admin = isObject(tree.admin) ? tree.admin : {};
  const serverUrl = normalisedUrl(
    config.server.url ?? '',
    () => new ConfigError(config.fileOf('server', 'url'), 'url', 'must be a valid URL or a path'),
  );
  const adminSetting = trimSlashes(typeof admin.url === 'string' ? admin.url : '/admin');
  const adminUrl = adminSetting.startsWith('http')
    ? normalisedUrl(
        adminSetting,
        () => new ConfigError(config.fileOf('admin', 'url'), 'url', 'must be a valid URL or a path'),
      )
    : `${serverUrl}/${adminSetting}`;
  const host = config.server.host ?? defaultHost();
  return {
    ...tree,
    host,
    port: config.server.port,
    server: { ...server, host, port: config.server.port, url: serverUrl },
    admin: { ...admin, url: adminUrl, path: adminPath(serverUrl, adminUrl) },
  };
}

/** What Strapi 4.26's configuration holds where no file sets it (`app-configuration`'s defaults). */
const STRAPI_DEFAULTS = {
  server: { proxy: false, cron: { enabled: false }, admin: { autoOpen: false }, dirs: { public: './public' } },
  admin: {},
  api: { rest: { prefix: '/api' } },
};

/** The Strapi version `strapi.config.info.strapi` names: the one whose API the service speaks. */
const STRAPI_VERSION = '4.26.2';

/**
 * The keys Strapi puts at the root of its configuration: the project's package.json (`info`, its
 * `strapi` section), the time of start-up; no admin panel is served and nothing reloads.
 */
function rootValues(appDir: string): Section {
  let pkg: Section = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
    if (isObject(parsed)) pkg = parsed;
  } catch {
    // a directory of schemas alone has no package.json
  }
  const strapi = isObject(pkg.strapi) ? pkg.strapi : {};
  const { uuid, ...packageJsonStrapi } = strapi;
  return {
    launchedAt: Date.now(),
    serveAdminPanel: false,
    autoReload: false,
    uuid,
    packageJsonStrapi,
    info: { ...pkg, strapi: STRAPI_VERSION },
  };
}

/** Strapi 4.26's `server.host` when nothing sets it: the machine's name (`localhost` without one). */
export function defaultHost(): string {
  return hostname() || 'localhost';
}

/** Strapi's `admin.path`: the admin URL's path (below the server's when both are on one origin). */
function adminPath(serverUrl: string, adminUrl: string): string {
  if (!adminUrl.startsWith('http')) return adminUrl;
  if (serverUrl.startsWith('http') && new URL(adminUrl).origin === new URL(serverUrl).origin)
    return `/${trimSlashes(adminUrl.replace(commonPath(serverUrl, adminUrl), ''))}`;
  return new URL(adminUrl).pathname;
}

/** The leading `/`-separated segments two URLs share (Strapi's `getCommonPath`). */
function commonPath(a: string, b: string): string {
  const left = a.split('/');
  const right = b.split('/');
  const shared: string[] = [];
  for (let i = 0; i < left.length && left[i] === right[i]; i += 1) shared.push(left[i] ?? '');
  return shared.join('/');
}
