/**
 * Strapi's own utility package for apps that require it without having it installed: a project
 * brought here often leaves `@strapi/*` out of its dependencies, yet its lifecycles and controllers
 * `require('@strapi/utils')` (its `errors` above all). Where the app's own copy resolves, that copy
 * is used; where none does, the service's (4.26.2, the last v4 release). Their errors answer by
 * name, as the app's own copy's do (errors/strapi-utils.ts).
 *
 * `lodash` likewise: every Strapi project has it through `@strapi/strapi`, and plugins installed
 * from npm require it without declaring it (strapi-plugin-populate-deep's `lodash/fp`).
 * Projects of the first 4.x releases require `@strapi/utils/lib` (its entry then): the same module.
 *
 * `bcryptjs` and `jsonwebtoken` too: users-permissions depends on them, so every Strapi install has
 * them at the top of `node_modules`, and users-permissions extensions (a sign-in by code or by
 * phone that checks the password and issues its own token) require them without declaring them.
 *
 * `koa-body/unparsed.js` too: Strapi's body parser is koa-body, and a project checking a webhook's
 * signature over the raw body (`strapi::body` with `includeUnparsed`) requires its symbol without
 * declaring koa-body.
 *
 * The files of `@strapi/plugin-users-permissions` that users-permissions extensions require (its
 * `server/utils` for `getService` and `sanitize`, the auth and user body validations, the jwt and
 * user service factories) are the
 * service's own modules of the same exports (plugins/users-permissions/package-files/): the
 * package itself is the plugin, served here.
 *
 * A few files inside `@strapi/strapi` itself (`lib/` up to 4.14, `dist/` after), which services
 * copied from Strapi's core service and plugins require: the core service's pagination helpers and
 * `getFetchParams`, and the entity service's factory (lifecycle/strapi-package-files/).
 */
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Node's CommonJS resolver, which `@types/node` does not describe */
interface CommonJsResolver {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

const ownRequire = createRequire(import.meta.url);
const FALLBACK_PACKAGES = ['@strapi/utils', 'lodash', 'bcryptjs', 'jsonwebtoken'];

const isFallback = (request: string) =>
  FALLBACK_PACKAGES.some((name) => request === name || request.startsWith(`${name}/`));

/** the entry of `@strapi/utils` up to 4.2 (`lib/`), which 4.26 names `dist/`: the same module */
const LEGACY_UTILS_ENTRY = /^@strapi\/utils\/lib(?:\/index(?:\.js)?)?$/;

const USERS_PERMISSIONS = '@strapi/plugin-users-permissions/server/';
/** a file of the users-permissions package, as required (`.js` or `/index.js` optional) → the service's module for it */
const USERS_PERMISSIONS_FILES: Record<string, string> = {
  utils: 'utils',
  'utils/sanitize': 'utils-sanitize',
  'controllers/validation/auth': 'validation-auth',
  'controllers/validation/user': 'validation-user',
  'services/jwt': 'service-jwt',
  'services/user': 'service-user',
};

/** the users-permissions package files the service answers, as a project requires them */
export const SERVED_USERS_PERMISSIONS_FILES: readonly string[] = Object.keys(USERS_PERMISSIONS_FILES).map(
  (file) => `server/${file}`,
);

/** the service's module standing for a users-permissions package file, compiled (`.js`) or not (`.ts`) as this one is */
function usersPermissionsFile(request: string): string | undefined {
  if (!request.startsWith(USERS_PERMISSIONS)) return undefined;
  const inPackage = request.slice(USERS_PERMISSIONS.length).replace(/(?:\/index)?(?:\.js)?$/, '');
  const served = Object.hasOwn(USERS_PERMISSIONS_FILES, inPackage) ? USERS_PERMISSIONS_FILES[inPackage] : undefined;
  if (served === undefined) return undefined;
  const ext = extname(fileURLToPath(import.meta.url));
  return fileURLToPath(new URL(`../plugins/users-permissions/package-files/${served}${ext}`, import.meta.url));
}

/** a file of `@strapi/strapi` (`lib/` or `dist/`, `.js` or `/index.js` optional) → the service's module for it */
const STRAPI_CORE = /^@strapi\/strapi\/(?:lib|dist)\/(.+?)(?:\/index)?(?:\.js)?$/;
const STRAPI_CORE_FILES: Record<string, { file: string; commonJs: boolean }> = {
  'core-api/service/pagination': { file: 'core-api-pagination', commonJs: false },
  'core-api/service': { file: 'core-api-service', commonJs: false },
  'services/entity-service': { file: 'entity-service', commonJs: true },
};

/** the `@strapi/strapi` files the service answers, as a project requires them */
export const SERVED_STRAPI_FILES: readonly string[] = Object.keys(STRAPI_CORE_FILES).map((file) => `lib/${file}`);

/** the service's module standing for a file of `@strapi/strapi`, compiled or not as this one is */
function strapiCoreFile(request: string): string | undefined {
  const inPackage = STRAPI_CORE.exec(request)?.[1];
  const served =
    inPackage !== undefined && Object.hasOwn(STRAPI_CORE_FILES, inPackage) ? STRAPI_CORE_FILES[inPackage] : undefined;
  if (served === undefined) return undefined;
  const compiled = extname(fileURLToPath(import.meta.url)) === '.js';
  const ext = served.commonJs ? (compiled ? '.cjs' : '.cts') : compiled ? '.js' : '.ts';
  return fileURLToPath(new URL(`../lifecycle/strapi-package-files/${served.file}${ext}`, import.meta.url));
}

/** `koa-body/unparsed.js` (koa-body's symbol for a raw body), which apps require through Strapi's koa-body */
const KOA_BODY_UNPARSED = /^koa-body\/unparsed(?:\.js)?$/;

/** the service's CommonJS module of that symbol, compiled (`.cjs`) or not (`.cts`) as this one is */
function koaBodyUnparsedFile(): string {
  const ext = extname(fileURLToPath(import.meta.url)) === '.js' ? '.cjs' : '.cts';
  return fileURLToPath(new URL(`./package-files/koa-body-unparsed${ext}`, import.meta.url));
}

/** The service's file for a request it answers itself when the app has no such package, if any. */
function fallbackFile(request: string): string | undefined {
  const served = usersPermissionsFile(request) ?? strapiCoreFile(request);
  if (served !== undefined) return served;
  if (KOA_BODY_UNPARSED.test(request)) return koaBodyUnparsedFile();
  if (!isFallback(request)) return undefined;
  return ownRequire.resolve(LEGACY_UTILS_ENTRY.test(request) ? '@strapi/utils' : request);
}

let installed = false;
/** set while the service's copy is looked up, so that a request it lacks fails once instead of recursing */
let resolvingOwnCopy = false;

/** From now on, an app's `require` of a fallback module it does not have resolves to the service's copy. */
export function resolveStrapiPackagesFallback(): void {
  if (installed) return;
  installed = true;
  const resolver = ownRequire('node:module') as CommonJsResolver;
  const original = resolver._resolveFilename.bind(resolver);
  resolver._resolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown): string => {
    try {
      return original(request, parent, isMain, options);
    } catch (err) {
      if (resolvingOwnCopy || (err as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw err;
      resolvingOwnCopy = true;
      let file: string | undefined;
      try {
        file = fallbackFile(request);
      } catch {
        file = undefined;
      } finally {
        resolvingOwnCopy = false;
      }
      // not in the service's copy either (a file of an older release): the app's own failure says what it asked for
      if (file === undefined) throw err;
      return file;
    }
  };
}
