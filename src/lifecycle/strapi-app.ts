/**
 * The `strapi` object an app's `register({ strapi })` / `bootstrap({ strapi })` receives (also set
 * as the global `strapi`, as Strapi does): the parts of Strapi v4's API that make sense on this
 * service. Anything else throws a message naming what was asked for.
 */
import { join, resolve } from 'node:path';
import get from 'lodash/get.js';
import has from 'lodash/has.js';
import set from 'lodash/set.js';
import toPath from 'lodash/toPath.js';
import type { ServiceConfig } from '../config/index.js';
import { API_TOKEN_UID, type CustomFieldBaseType, type Registry } from '../content-types/index.js';
import type { Logger } from '../logger.js';
import type { ServiceContext } from '../service-context.js';
import { createAppCode, type AppCode } from './app-controllers.js';
import type { MethodBag } from './core-controller.js';
import type { DbLifecyclesProvider } from './db-lifecycles.js';
import { createStrapiStore, type StrapiStore } from './core-store.js';
import { createEntityService, type EntityService } from './entity-service.js';
import { createQueryEngine, type QueryEngine } from './query-engine.js';
import { createPendingQueries, type PendingQueries } from './pending-queries.js';
import { NO_LIFECYCLES } from './read-hooks.js';
import type { StrapiServer } from './strapi-server.js';
import type { CronService } from './cron.js';
import { builtInPluginServer, createPluginHolder, type PluginHolder } from './plugin-objects.js';
import type { CoreFactoryRecord } from './strapi-factories.js';
import type { LoadedPlugin } from './plugin-loader.js';
import { adminPanel, adminPermissionService, type StrapiAdmin } from './admin-panel.js';
import { recordOwnServices } from '../plugins/own-services.js';
import type { PluginRoute, PluginRouteMiddleware } from '../plugins/types.js';
import type { Ability } from '../access/ability.js';
import { UnsupportedStrapiApi, strictObject } from './unsupported.js';
import { createDbTransaction, type DbTransaction } from './db-transaction.js';
import { inOpenAmbientTransaction } from '../database/ambient-transaction.js';
import { emailServiceOf } from '../plugins/email/index.js';
import { ownUploadServices, uploadRuntime, type UploadServices } from '../plugins/upload/index.js';
import { createCustomFieldsRegistry, type CustomFieldsRegistry, type StrapiCustomFields } from './custom-fields.js';
import { createUsersService } from './users-service.js';
import {
  createApiTokenService,
  createRoleService,
  sendConfirmationEmail,
  usersPermissionsRuntime,
} from '../plugins/users-permissions/index.js';
import { createUsersPermissionsService } from './users-permissions-service.js';
import { createAdminUserService } from './admin-user-service.js';
import { createPathRegistry, type AppRegistries, type PathRegistry } from './sanitizer-registries.js';
import { createContentManagerUidService } from './content-manager-uid.js';
import {
  WEBHOOK_MODEL_UID,
  type EventHub,
  type StrapiWebhookRunner,
  type WebhookQuery,
  type WebhookStore,
} from '../webhooks/index.js';
import type { ApiRouter } from './content-api-routes.js';
import { strapiApi, type StrapiApiModule } from './strapi-api.js';
import { createSchemaEdits, type SchemaEdits } from './schema-edits.js';
import { contentApiStrategies, createStrapiAuth, type AuthStrategy, type StrapiAuth } from './strapi-auth.js';
import { createStrapiContainer, type StrapiContainer } from './strapi-container.js';
import { createDbMetadata, type DbMetadata } from './db-metadata.js';
import { describeSchema, type StrapiContentType } from './strapi-schema.js';
import { strapiRequestContext, type StrapiRequestContext } from '../middlewares/request-context.js';

export type { StrapiContentType };

/** What the running service lends the `strapi` object. */
export interface LifecycleHost {
  config: ServiceConfig;
  logger: Logger;
  registry: Registry;
  /** the running service, for the entity service and the query engine */
  service: ServiceContext;
  /** `strapi.db.lifecycles`: the hooks the service's writes run */
  dbLifecycles: DbLifecyclesProvider;
  /** the built-in plugins that are on */
  enabledPlugins: readonly string[];
  /** the built-in plugins Content Service has, on or off */
  knownPlugins: readonly string[];
  /** a built-in plugin's config as Strapi holds it (defaults and secrets in; absent: the app's as given) */
  pluginConfig?(plugin: string): Record<string, unknown> | undefined;
  /** every service a plugin registered, by name */
  pluginServices(plugin: string): Record<string, unknown>;
  /** the project's plugins (local ones, `config/plugins` entries with `resolve`, and installed packages), loaded */
  projectPlugins?: readonly LoadedPlugin[];
  /** the content-API routes a plugin declared, and the middlewares they name */
  pluginRoutes?(
    plugin: string,
  ): { routes: PluginRoute[]; middlewares: Readonly<Record<string, PluginRouteMiddleware>> } | undefined;
  /** `strapi.server`: the app's routes and Koa middlewares, the HTTP server (absent: the API throws) */
  server?: StrapiServer;
  /** `strapi.cron` (absent: the API throws) */
  cron?: CronService;
  /** the app's controllers and services (absent: the core ones of the content-types) */
  code?: AppCode;
  /** `strapi.eventHub`, `strapi.webhookStore`, `strapi.webhookRunner` */
  webhooks: { eventHub: EventHub; store: WebhookStore; query: WebhookQuery; runner: StrapiWebhookRunner };
  /** the route files' routers, by api and file name (absent: none) */
  apiRouters?(): Record<string, Record<string, ApiRouter>>;
  /** `strapi.sanitizers` and `strapi.validators`, shared with the core controllers (absent: new ones) */
  registries?: AppRegistries;
}

type LogMethod = (message: string, ...rest: unknown[]) => void;

export interface StrapiLog {
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  debug: LogMethod;
  http: LogMethod;
  verbose: LogMethod;
}

export interface StrapiConfig {
  get(path: string, defaultValue?: unknown): unknown;
  has(path: string): boolean;
  set(path: string, value: unknown): StrapiConfig;
  [file: string]: unknown;
}

export interface StrapiPlugin {
  service(name: string): unknown;
  readonly services: Record<string, unknown>;
  controller(name: string): MethodBag | undefined;
  readonly controllers: Record<string, MethodBag>;
  /** the plugin's routes by router (`'content-api'`), which the app may change in its register hook */
  readonly routes: PluginHolder['server']['routes'];
  readonly middlewares: Record<string, unknown>;
  middleware(name: string): unknown;
  readonly policies: Record<string, unknown>;
  policy(name: string): unknown;
  config(path: string, defaultValue?: unknown): unknown;
  contentType(name: string): StrapiContentType | undefined;
  readonly contentTypes: Record<string, StrapiContentType>;
  /** the upload plugin's provider (`upload`, `uploadStream`, `delete`, `checkFileSize`, `extend`...), the e-mail plugin's (`send`) */
  readonly provider?: unknown;
}

type AppLayout = Record<
  'root' | 'src' | 'api' | 'components' | 'extensions' | 'policies' | 'middlewares' | 'config',
  string
>;

/**
 * Strapi 4.26's `strapi.dirs` (`app`, `dist`, `static.public`) and, beside them, the flat layout of
 * Strapi 4.0 to 4.2 (`strapi.dirs.public`, `strapi.dirs.root`...), which projects made then still read
 * (a copy of that version's local upload provider resolves `strapi.dirs.public`).
 */
type StrapiDirs = AppLayout & { app: AppLayout; dist: AppLayout; static: { public: string }; public: string };

export interface StrapiApp {
  config: StrapiConfig;
  log: StrapiLog;
  dirs: StrapiDirs;
  plugin(name: string): StrapiPlugin | undefined;
  service(uid: string): unknown;
  readonly services: Record<string, unknown>;
  controller(uid: string): MethodBag;
  readonly controllers: Record<string, MethodBag>;
  readonly plugins: Record<string, StrapiPlugin>;
  readonly contentTypes: Record<string, StrapiContentType>;
  readonly components: Record<string, StrapiContentType>;
  contentType(uid: string): StrapiContentType | undefined;
  getModel(uid: string): StrapiContentType | undefined;
  entityService: EntityService;
  db: {
    query(uid: string): QueryEngine;
    lifecycles: Pick<DbLifecyclesProvider, 'subscribe' | 'clear'>;
    transaction: DbTransaction;
    /** whether the caller runs inside `transaction(cb)` */
    inTransaction(): boolean;
    metadata: DbMetadata;
  };
  query(uid: string): QueryEngine;
  store: StrapiStore;
  customFields: StrapiCustomFields;
  /** the app's extra sanitizers and validators, read by `@strapi/utils`' sanitize and validate helpers */
  sanitizers: PathRegistry;
  validators: PathRegistry;
  server?: StrapiServer;
  cron?: CronService;
  /** the admin panel's permission registrations, accepted as no-ops */
  admin: StrapiAdmin;
  eventHub: EventHub;
  webhookStore: WebhookStore;
  webhookRunner: StrapiWebhookRunner;
  /** `strapi.contentAPI.permissions.engine.generateAbility(permissions)`: an ability over a list of actions */
  contentAPI: StrapiContentApi;
  /** the apis as Strapi's modules (strapi-api.ts) */
  readonly api: Record<string, StrapiApiModule<StrapiContentType>>;
  auth: StrapiAuth;
  /** Strapi's registry container, for the registries above (strapi-container.ts) */
  container: StrapiContainer;
  /** the Koa context of the request being served (`get()`), wherever the code runs */
  requestContext: StrapiRequestContext;
}

/** `strapi` while the app's files load (see loadingStrapi). */
export type LoadingStrapi = Pick<StrapiApp, 'config' | 'log' | 'dirs'>;

declare global {
  // Strapi apps reach the running instance through this global (`strapi.service(...)` in resolvers)
  var strapi: StrapiApp | LoadingStrapi | undefined;
}

/**
 * What the global `strapi` is while the app's files are loaded: Strapi sets it before requiring
 * them, and a module may read `strapi.config` or `strapi.log` at its top level. The rest exists
 * once the service is built (after the files load: the database, the services, the plugins), and
 * reading it sooner says so.
 */
export function loadingStrapi(config: ServiceConfig, logger: Logger): LoadingStrapi {
  const early: LoadingStrapi = { config: configObject(config.tree), log: logMethods(logger), dirs: dirsOf(config) };
  return new Proxy(early, {
    get(target, key, receiver) {
      if (typeof key === 'symbol' || key in target) return Reflect.get(target, key, receiver) as unknown;
      throw new Error(
        `strapi.${key} was read while the app's files load, at a module's top level: Content Service builds ` +
          `the database, services and plugins after loading them (strapi.config, strapi.log and strapi.dirs are there); ` +
          `read it inside a function (a controller action, a lifecycle, register or bootstrap)`,
      );
    },
  });
}

function logMethods(logger: Logger): StrapiLog {
  const at =
    (level: 'info' | 'warn' | 'error' | 'debug' | 'trace'): LogMethod =>
    (message, ...rest) => {
      if (rest.length === 0) logger[level](message);
      else logger[level]({ details: rest }, String(message));
    };
  return {
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    http: at('debug'),
    verbose: at('trace'),
  };
}

/** `strapi.contentAPI`: what plugins read of Strapi's content-API permission engine. */
export interface StrapiContentApi {
  permissions: { engine: { generateAbility(permissions: unknown): Promise<Ability> } };
}

/**
 * Strapi's engine makes a CASL ability from `[{ action }]` (a role's or a token's permissions);
 * here an ability that can exactly those actions (strapi-plugin-io checks a room's this way).
 */
const contentApiPermissionEngine = {
  async generateAbility(permissions: unknown): Promise<Ability> {
    const actions = new Set(
      (Array.isArray(permissions) ? permissions : [])
        .map((permission: unknown) =>
          typeof permission === 'object' && permission !== null
            ? (permission as { action?: unknown }).action
            : undefined,
        )
        .filter((action): action is string => typeof action === 'string'),
    );
    return { can: (action: string) => actions.has(action) };
  },
};

const CONFIG_METHODS = new Set(['get', 'has', 'set']);

function configObject(tree: Record<string, unknown>): StrapiConfig {
  const values = structuredCloneSafe(tree);
  const config: StrapiConfig = {
    ...values,
    get: (path, defaultValue) => get(values, path, defaultValue) as unknown,
    has: (path) => has(values, path),
    set(path, value) {
      set(values, path, value);
      // the files are also read as properties (`strapi.config.server`, `strapi.config.port`)
      const [file] = toPath(path);
      if (file !== undefined && !CONFIG_METHODS.has(file)) config[file] = values[file];
      return config;
    },
  };
  return config;
}

/** A copy whose edits through `strapi.config.set` never reach the running service's configuration. */
function structuredCloneSafe(tree: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(tree);
  } catch {
    // functions (a cors origin function, an e-mail transport) cannot be cloned: keep the values
    return { ...tree };
  }
}

/**
 * `strapi.entityService.decorate(fn)`: Strapi 4.26 runs its core services, and with them REST and
 * GraphQL, through the decorated entity service. Here they read and write through the query
 * planner, not through `strapi.entityService`, so a decorator (a soft delete, a default filter)
 * would change only the app's own calls while REST and GraphQL still answer and delete for good
 * what it means to hide or keep: refused, saying why, rather than half applied.
 */
function refuseEntityServiceDecorator(): never {
  throw new UnsupportedStrapiApi(
    'strapi.entityService.decorate(fn)',
    "REST and GraphQL here do not go through strapi.entityService, so a decorator would change only the app's own calls " +
      '(a soft delete would still delete for good over REST and GraphQL); it offers findMany, findOne, count, findPage, ' +
      'create, update, delete, load, loadPages',
  );
}

function dirsOf(config: ServiceConfig): StrapiApp['dirs'] {
  const root = config.appDir;
  const src = join(root, 'src');
  const layout = {
    root,
    src,
    api: join(src, 'api'),
    components: join(src, 'components'),
    extensions: join(src, 'extensions'),
    policies: join(src, 'policies'),
    middlewares: join(src, 'middlewares'),
    config: join(root, 'config'),
  };
  const publicDir = resolve(config.server.publicDir);
  return { ...layout, public: publicDir, app: layout, dist: layout, static: { public: publicDir } };
}

const APP_API =
  'plugin(name), service(uid), services, controller(uid), controllers, api, config.get/has/set, log, dirs, contentTypes, contentType(uid), components, getModel(uid), entityService, db.query(uid), db.lifecycles, db.transaction(cb), db.inTransaction(), db.metadata, query(uid), store(scope), customFields.register, server, cron, auth.verify/register, container.get(name), requestContext.get/run, sanitizers, validators, admin.services.permission, eventHub, webhookStore, webhookRunner, contentAPI.permissions.engine.generateAbility';
const PLUGIN_API =
  'service(name), services, controller(name), controllers, routes, middleware(name), middlewares, policy(name), policies, config(path), contentType(name), contentTypes';
/** The members of Strapi 4.26's plugin module that app code may not call here (the service runs them). */
const PLUGIN_MEMBERS_NOT_OFFERED = ['register', 'bootstrap', 'destroy', 'load'];

/** The plugin objects of a `strapi` object's built-in plugins (their extensions and routes are the service's to run). */
const pluginHolders = new WeakMap<object, ReadonlyMap<string, PluginHolder>>();
export function pluginHoldersOf(app: StrapiApp): ReadonlyMap<string, PluginHolder> {
  return pluginHolders.get(app) ?? new Map();
}

const schemaEditsByApp = new WeakMap<object, SchemaEdits>();
/** What the app's code changes of the content-types' attributes at start-up (see schema-edits.ts). */
export function schemaEditsOf(app: StrapiApp): SchemaEdits {
  const edits = schemaEditsByApp.get(app);
  if (!edits) throw new Error('not a strapi object of this service');
  return edits;
}

function isBuilt(app: StrapiApp | LoadingStrapi): app is StrapiApp {
  return pluginHolders.has(app);
}

/** The global `strapi` once a service built it (undefined while the app's files load, or with no app code). */
export function runningStrapi(): StrapiApp | undefined {
  const current = globalThis.strapi;
  return current !== undefined && isBuilt(current) ? current : undefined;
}

/** The custom fields the app's code registered through a `strapi` object. */
const customFieldRegistries = new WeakMap<StrapiApp, CustomFieldsRegistry>();
export function registeredCustomFields(app: StrapiApp): ReadonlyMap<string, CustomFieldBaseType> {
  return customFieldRegistries.get(app)?.registered() ?? new Map();
}

/** The content-API strategies the app's code registered through a `strapi` object's auth service. */
const appAuths = new WeakMap<StrapiApp, StrapiAuth>();
export function appContentApiStrategies(app: StrapiApp): readonly AuthStrategy[] {
  const auth = appAuths.get(app);
  return auth ? contentApiStrategies(auth) : [];
}

/** The queries the app's code starts through a `strapi` object once the service is stopping. */
const appQueries = new WeakMap<StrapiApp, PendingQueries>();
export function appPendingQueries(app: StrapiApp): PendingQueries | undefined {
  return appQueries.get(app);
}

/** `{ uid: value }` whose values are made when read, as Strapi's `strapi.controllers` and `strapi.services`. */
function lazyMap<T>(entries: ReadonlyArray<readonly [string, () => T]>): Record<string, T> {
  const map: Record<string, T> = {};
  for (const [uid, get] of entries) Object.defineProperty(map, uid, { enumerable: true, get });
  return map;
}

const NO_APP_CODE = { controllers: [], services: [], files: [], customised: false };

export function createStrapiApp(host: LifecycleHost): StrapiApp {
  const { registry } = host;
  const registries = host.registries ?? { sanitizers: createPathRegistry(), validators: createPathRegistry() };
  const code = host.code ?? createAppCode(NO_APP_CODE, { service: host.service, strapi: () => app, registries });
  // the query engine's own load (a list of fields) is not the entity service's
  const { loadFields: _queryEngineOnly, ...entityService } = createEntityService(host.service);
  // as Strapi's, the query engine's writes emit no events (its entity service's do); what a
  // `*Many` action does runs no per-entry hooks, and the query engine runs its read hooks itself
  const { events: _events, ...unheard } = host.service;
  // and they store passwords as given and validate nothing (its entity service hashes and validates)
  const queryEntities = createEntityService(unheard, { queryEngine: true });
  const silent = createEntityService({ ...unheard, lifecycles: NO_LIFECYCLES }, { queryEngine: true });
  const pendingQueries = createPendingQueries();
  // Strapi's own webhook model is no content-type, but its query engine reaches it
  const query = (uid: string): QueryEngine =>
    pendingQueries.tracked(
      uid === WEBHOOK_MODEL_UID
        ? host.webhooks.query
        : createQueryEngine({ entities: queryEntities, silent, lifecycles: host.service.lifecycles }, uid),
    );
  // plugin services defined on the entity service and the query engine, as Strapi defines them
  const usersService = strictObject(
    createUsersService(entityService, query, async (user) => {
      const runtime = usersPermissionsRuntime(host.service);
      if (!runtime)
        throw new UnsupportedStrapiApi("strapi.plugin('users-permissions').service('user').sendConfirmationEmail");
      await sendConfirmationEmail(runtime, user);
    }),
    "strapi.plugin('users-permissions').service('user')",
    'add, edit, fetch, fetchAll, fetchAuthenticatedUser, count, remove, validatePassword, sendConfirmationEmail',
  );
  const pluginRuntime = (caller: string) => () => {
    const runtime = usersPermissionsRuntime(host.service);
    if (!runtime) throw new UnsupportedStrapiApi(caller, 'the users-permissions plugin is turned off');
    return runtime;
  };
  const roleService = strictObject(
    createRoleService(pluginRuntime("strapi.plugin('users-permissions').service('role')")),
    "strapi.plugin('users-permissions').service('role')",
    'find, findOne, createRole, updateRole, deleteRole',
  );
  const apiTokens = strictObject(
    createApiTokenService(pluginRuntime("strapi.service('admin::api-token')"), () => query(API_TOKEN_UID)),
    "strapi.service('admin::api-token')",
    'hash, list, getBy, getById, getByName, exists, create, update, regenerate, revoke, checkSaltIsDefined',
  );
  const usersPermissionsService = strictObject(
    createUsersPermissionsService(query),
    "strapi.plugin('users-permissions').service('users-permissions')",
    'initialize, updateUserRole',
  );
  const adminUsers = strictObject(
    createAdminUserService(query),
    "strapi.service('admin::user')",
    'exists, create, findOne, findOneByEmail, update, count, deleteById, sanitizeUser',
  );
  const contentManagerUid = strictObject(
    createContentManagerUidService(registry, query),
    "strapi.service('plugin::content-manager.uid')",
    'generateUIDField, findUniqueUID, checkUIDAvailability',
  );
  // the upload plugin's own services, as Strapi 4.26 has them (its paths call what the app makes of them)
  let uploadServices: UploadServices | undefined;
  const uploadServicesNow = (): UploadServices => {
    const runtime = uploadRuntime(host.service);
    if (!runtime) throw new UnsupportedStrapiApi("strapi.plugin('upload')", 'the upload plugin is turned off');
    uploadServices ??= ownUploadServices(host.service, runtime);
    return uploadServices;
  };
  const declaredServices = (plugin: string): Record<string, unknown> => ({
    // the plugin's own services (`jwt`, `providers-registry`) come from its register
    ...(plugin === 'users-permissions'
      ? { user: usersService, role: roleService, 'users-permissions': usersPermissionsService }
      : {}),
    ...(plugin === 'upload'
      ? {
          upload: uploadServicesNow().upload,
          'image-manipulation': uploadServicesNow()['image-manipulation'],
          provider: uploadServicesNow().provider,
        }
      : {}),
    ...host.pluginServices(plugin),
  });
  const holderHost = {
    strapi: () => app,
    coreFactoryInstance: (record: CoreFactoryRecord) => code.coreFactoryInstance(record),
  };
  const holders = new Map(
    host.enabledPlugins.map((name) => {
      const declared = host.pluginRoutes?.(name);
      const { server, defaults } = builtInPluginServer({
        name,
        routes: declared?.routes ?? [],
        middlewares: declared?.middlewares ?? {},
        services: () => declaredServices(name),
        config: { ...(host.pluginConfig?.(name) ?? host.config.plugins[name]?.config ?? {}) },
        contentTypes: Object.fromEntries(
          registry
            .listContentTypes()
            .filter((ct) => ct.uid.startsWith(`plugin::${name}.`))
            // a copy: what an extension changes is taken after the register hooks (schema-edits.ts)
            .map((ct) => [ct.uid.slice(`plugin::${name}.`.length), { schema: structuredClone(describeSchema(ct)) }]),
        ),
      });
      return [name, createPluginHolder(name, server, defaults, holderHost)] as const;
    }),
  );
  for (const own of host.projectPlugins ?? [])
    holders.set(own.name, createPluginHolder(own.name, own.server, { routes: [], actions: new Map() }, holderHost));
  const holderOf = (name: string): PluginHolder => {
    const holder = holders.get(name);
    if (!holder) throw new UnsupportedStrapiApi(`strapi.plugin('${name}')`);
    return holder;
  };
  const servicesOf = (plugin: string): Record<string, unknown> => {
    const holder = holderOf(plugin);
    return lazyMap(holder.serviceNames().map((name) => [name, () => holder.service(name)] as const));
  };
  const schemaEdits = createSchemaEdits(registry);
  const allContentTypes = (): Record<string, StrapiContentType> =>
    Object.fromEntries(registry.listContentTypes().map((ct) => [ct.uid, schemaEdits.view(ct)]));

  // one object per plugin, as Strapi's: what a plugin's code puts on it is there the next time
  const pluginObjects = new Map<string, StrapiPlugin>();
  const pluginObject = (name: string): StrapiPlugin => {
    let object = pluginObjects.get(name);
    if (!object) {
      object = newPluginObject(name);
      pluginObjects.set(name, object);
    }
    return object;
  };
  const newPluginObject = (name: string): StrapiPlugin => {
    const holder = holderOf(name);
    const named = (kind: 'middlewares' | 'policies', one: string, item: string) => {
      const found = holder.server[kind][item];
      if (found === undefined) throw new UnsupportedStrapiApi(`strapi.plugin('${name}').${one}('${item}')`);
      return found;
    };
    const plugin: StrapiPlugin = {
      service(serviceName) {
        const service = holder.service(serviceName);
        if (service === undefined) throw new UnsupportedStrapiApi(`strapi.plugin('${name}').service('${serviceName}')`);
        return service;
      },
      get services() {
        return servicesOf(name);
      },
      controller: (controllerName) => holder.controller(controllerName),
      get controllers() {
        return lazyMap(holder.controllerNames().map((c) => [c, () => holder.controller(c) ?? {}] as const));
      },
      get routes() {
        return holder.server.routes;
      },
      get middlewares() {
        return holder.server.middlewares;
      },
      middleware: (item) => named('middlewares', 'middleware', item),
      get policies() {
        return holder.server.policies;
      },
      policy: (item) => named('policies', 'policy', item),
      config: (path, defaultValue) => get(holder.server.config, path, defaultValue) as unknown,
      contentType(ctName) {
        const ct = registry.contentType(`plugin::${name}.${ctName}`);
        return ct ? schemaEdits.view(ct) : undefined;
      },
      get contentTypes() {
        return Object.fromEntries(
          Object.entries(allContentTypes())
            .filter(([uid]) => uid.startsWith(`plugin::${name}.`))
            .map(([uid, ct]) => [uid.slice(`plugin::${name}.`.length), ct]),
        );
      },
    };
    // read when asked: the upload plugin's provider is made with its services
    if (name === 'upload')
      Object.defineProperty(plugin, 'provider', { enumerable: true, get: () => uploadServicesNow().strapiProvider });
    // as Strapi's e-mail plugin sets it in its bootstrap: the provider's own object
    if (name === 'email')
      Object.defineProperty(plugin, 'provider', {
        enumerable: true,
        get: () => emailServiceOf(host.service)?.provider,
      });
    // Strapi's plugin object answers undefined for what it does not have, and plugins test their own
    // state so (strapi-plugin-config-sync: `if (!strapi.plugin('config-sync').pluginTypes)`)
    return strictObject(
      plugin,
      `strapi.plugin('${name}')`,
      name === 'upload' || name === 'email' ? `${PLUGIN_API}, provider` : PLUGIN_API,
      {
        refusedOnly: PLUGIN_MEMBERS_NOT_OFFERED,
      },
    );
  };

  const customFields = createCustomFieldsRegistry((name) => holders.has(name));
  const apiModules = strapiApi<StrapiContentType>({
    names: () => [
      ...new Set(
        [...registry.listContentTypes().map((ct) => ct.uid), ...code.controllerUids(), ...code.serviceUids()]
          .filter((uid) => uid.startsWith('api::'))
          .map((uid) => uid.slice('api::'.length).split('.')[0] ?? '')
          .concat(Object.keys(host.apiRouters?.() ?? {})),
      ),
    ],
    routers: () => host.apiRouters?.() ?? {},
    contentTypes: () =>
      Object.fromEntries(Object.entries(allContentTypes()).filter(([uid]) => uid.startsWith('api::'))),
    controllerUids: () => code.controllerUids(),
    controller: (uid) => code.controller(uid),
    serviceUids: () => code.serviceUids(),
    service: (uid) => code.service(uid),
    config: (path, defaultValue) => app.config.get(path, defaultValue),
  });
  const unknownPluginsAsked = new Set<string>();
  const ownAuth = createStrapiAuth(host.logger);
  const auth = strictObject(ownAuth, 'strapi.auth', 'verify(auth, config), register(type, strategy)');
  let container: StrapiContainer | undefined;
  const app: StrapiApp = {
    config: configObject(host.config.tree),
    log: logMethods(host.logger),
    dirs: dirsOf(host.config),
    plugin(name) {
      if (holders.has(name)) return pluginObject(name);
      // Strapi answers undefined for a plugin that is off or not installed, so that
      // `if (strapi.plugin('documentation'))` works; the app's code is told once what it asked for
      if (!host.knownPlugins.includes(name) && !unknownPluginsAsked.has(name)) {
        unknownPluginsAsked.add(name);
        host.logger.warn(
          `strapi.plugin('${name}') is undefined: Content Service has no plugin of that name (its plugins are ${[...host.knownPlugins, ...(host.projectPlugins ?? []).map((p) => p.name)].join(', ')})`,
        );
      }
      return undefined;
    },
    service(uid) {
      if (uid.startsWith('api::')) {
        const found = code.service(uid);
        if (found === undefined)
          throw new UnsupportedStrapiApi(
            `strapi.service('${uid}')`,
            "it offers the app's services and the core services of content-types ('api::<api>.<name>') and plugin services such as 'plugin::graphql.extension'",
          );
        if (code.ownService(uid) || typeof found !== 'object' || found === null) return found;
        return strictObject(
          found,
          `strapi.service('${uid}')`,
          "the core service's find, findOne, create, update, delete (the app has no service file of its own for it)",
        );
      }
      if (uid === 'admin::user') return adminUsers;
      if (uid === 'admin::api-token') return apiTokens;
      if (uid === 'plugin::content-manager.uid') return contentManagerUid;
      if (uid === 'admin::permission') return adminPermissionService("strapi.service('admin::permission')");
      const match = /^plugin::([\w-]+)\.([\w-]+)$/.exec(uid);
      if (!match)
        throw new UnsupportedStrapiApi(
          `strapi.service('${uid}')`,
          "it offers the core services of content-types ('api::<api>.<name>'), plugin services such as 'plugin::graphql.extension', 'admin::user' and 'admin::api-token'",
        );
      const plugin = app.plugin(match[1] ?? '');
      if (!plugin)
        throw new UnsupportedStrapiApi(`strapi.service('${uid}')`, `the plugin ${match[1]} is turned off or not here`);
      return plugin.service(match[2] ?? '');
    },
    get services() {
      return lazyMap([
        ...code.serviceUids().map((uid) => [uid, () => app.service(uid)] as const),
        ...[...holders.keys()].flatMap((plugin) =>
          Object.entries(servicesOf(plugin)).map(
            ([name, service]) => [`plugin::${plugin}.${name}`, () => service] as const,
          ),
        ),
      ]);
    },
    controller(uid) {
      const plugin = /^plugin::([\w-]+)\.([\w-]+)$/.exec(uid);
      const found = uid.startsWith('api::')
        ? code.controller(uid)
        : plugin && holders.has(plugin[1] ?? '')
          ? holderOf(plugin[1] ?? '').controller(plugin[2] ?? '')
          : undefined;
      if (!found)
        throw new UnsupportedStrapiApi(
          `strapi.controller('${uid}')`,
          "it offers the app's controllers, the core controllers of content-types ('api::<api>.<name>') and the plugins' ('plugin::<plugin>.<name>')",
        );
      return found;
    },
    get controllers() {
      return lazyMap([
        ...code.controllerUids().map((uid) => [uid, () => app.controller(uid)] as const),
        ...[...holders.values()].flatMap((holder) =>
          holder
            .controllerNames()
            .map((c) => [`plugin::${holder.name}.${c}`, () => app.controller(`plugin::${holder.name}.${c}`)] as const),
        ),
      ]);
    },
    get plugins() {
      return Object.fromEntries([...holders.keys()].map((name) => [name, pluginObject(name)]));
    },
    get contentTypes() {
      return allContentTypes();
    },
    get components() {
      return Object.fromEntries(registry.listComponents().map((c) => [c.uid, schemaEdits.view(c)]));
    },
    contentType(uid) {
      const ct = registry.contentType(uid);
      return ct ? schemaEdits.view(ct) : undefined;
    },
    getModel(uid) {
      const schema = registry.schema(uid);
      return schema ? schemaEdits.view(schema) : undefined;
    },
    entityService: strictObject(
      pendingQueries.tracked({ ...entityService, decorate: refuseEntityServiceDecorator }),
      'strapi.entityService',
      'findMany, findOne, count, findPage, create, update, delete, load, loadPages',
    ),
    db: strictObject(
      {
        query,
        lifecycles: strictObject(
          { subscribe: host.dbLifecycles.subscribe, clear: host.dbLifecycles.clear },
          'strapi.db.lifecycles',
          'subscribe(subscriber), clear()',
        ),
        transaction: createDbTransaction(host.service.models, host.service.logger),
        inTransaction: () => inOpenAmbientTransaction(),
        metadata: createDbMetadata(registry),
      },
      'strapi.db',
      'query(uid), lifecycles, transaction(cb), inTransaction(), metadata',
    ),
    query,
    store: createStrapiStore(host.service.connection),
    customFields: strictObject(customFields.api, 'strapi.customFields', 'register(customField)'),
    sanitizers: registries.sanitizers,
    validators: registries.validators,
    ...(host.server ? { server: host.server } : {}),
    ...(host.cron ? { cron: host.cron } : {}),
    admin: adminPanel(),
    eventHub: host.webhooks.eventHub,
    webhookStore: host.webhooks.store,
    webhookRunner: host.webhooks.runner,
    contentAPI: strictObject(
      { permissions: strictObject({ engine: contentApiPermissionEngine }, 'strapi.contentAPI.permissions', 'engine') },
      'strapi.contentAPI',
      'permissions.engine.generateAbility(permissions)',
    ),
    get api() {
      return apiModules();
    },
    auth,
    get container() {
      container ??= createStrapiContainer({ auth, config: app.config, ...registries, customFields: customFields.api });
      return container;
    },
    requestContext: strapiRequestContext,
  };
  // as Strapi's plugin container: a plugin's settings (its defaults under the app's) are `plugin.<name>`
  for (const own of host.projectPlugins ?? []) app.config.set(`plugin.${own.name}`, own.server.config);
  for (const [name, holder] of holders)
    if (host.enabledPlugins.includes(name)) app.config.set(`plugin.${name}`, holder.server.config);
  const strict = strictObject(app, 'strapi', APP_API);
  pluginHolders.set(strict, holders);
  schemaEditsByApp.set(strict, schemaEdits);
  recordOwnServices(strict, (plugin, name) => holders.get(plugin)?.ownService(name));
  customFieldRegistries.set(strict, customFields);
  appAuths.set(strict, ownAuth);
  appQueries.set(strict, pendingQueries);
  return strict;
}
