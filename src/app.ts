import { createServer as createHttpServer, type Server } from 'node:http';
import express, { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import mongoose from 'mongoose';
import { allowAll, type Authenticator } from './access/ability.js';
import { authenticateWithRouteStrategies, withAppStrategies } from './lifecycle/app-auth-strategies.js';
import {
  beginAppModules,
  bodyFileLimit,
  ConfigError,
  loadConfig,
  type ConfigOverrides,
  type ServiceConfig,
} from './config/index.js';
import {
  buildAppRegistry,
  customFieldTypes,
  SchemaError,
  type AppRegistry,
  type AttributeChanges,
} from './content-types/index.js';
import type { EarlyStart } from './database/early-start.js';
import { selectDatabase, type DatabaseHandle } from './database/select-database.js';
import {
  configuredCronTasks,
  createAppServer,
  createCronService,
  createDbLifecycles,
  createAppCode,
  createStrapiApp,
  createContentApiRoutes,
  addedPluginTypes,
  pluginTypeLifecycles,
  applyPluginExtensions,
  appDependencies,
  findInstalledPlugins,
  strapiPluginSteps,
  isInstalledPluginKey,
  inStrapiOrder,
  loadInstalledPlugins,
  loadLocalPlugins,
  loadPluginExtensions,
  pluginContentTypes,
  runPluginHook,
  runExtendedBuiltInHooks,
  withStorablePlugins,
  createPluginAdminRoutes,
  prefixedPath,
  layerMethods,
  resolveNamedPolicy,
  pluginHoldersOf,
  appContentApiStrategies,
  appPendingQueries,
  registeredCustomFields,
  settleCustomFields,
  loadingStrapi,
  schemaEditsOf,
  schemaChangers,
  loadAppCode,
  loadRouteFiles,
  restActions,
  appInputSanitizer,
  createPathRegistry,
  loadLifecycle,
  loadModelLifecycles,
  type AppRegistries,
  type ContentApiRoutes,
  type EndpointHost,
  type StrapiApp,
} from './lifecycle/index.js';
import { createLogger, type Logger } from './logger.js';
import { listen } from './listen.js';
import { asOneLayer } from './middlewares/chain.js';
import { segmentGate } from './rest/segment-gate.js';
import { buildMiddlewares } from './middlewares/index.js';
import { setKoaAppView, type KoaAppView } from './middlewares/koa-context.js';
import { detachedKoaContext, enterRequestContext } from './middlewares/request-context.js';
import { readMultipartForApp } from './middlewares/koa-multipart.js';
import { Models } from './models/index.js';
import { flushSettled, startSettleRecovery } from './write/index.js';
import { CredentialsEpoch, credentialsEpochOptions } from './database/credentials-epoch.js';
import {
  BUILT_IN_PLUGINS,
  enabledPlugins,
  type Plugin,
  type PluginRoute,
  type PluginRouteMiddleware,
} from './plugins/index.js';
import { graphqlConfig } from './plugins/graphql/config.js';
import { ExtensionError, ExtensionService } from './plugins/graphql/index.js';
import { i18nSettings } from './plugins/i18n/index.js';
import { DEFAULT_SETTINGS, contentRoutes } from './rest/content-routes.js';
import { bodyDepthGuard } from './rest/body-depth-guard.js';
import { HEALTH_PATH, healthCheck } from './rest/health.js';
import { pathGuard } from './rest/path-guard.js';
import { setRequestAuth } from './operations/request-context.js';
import { pluginRouteInfo, setRequestRoute } from './operations/request-route.js';
import type { MediaUrlSigner, ServiceContext } from './service-context.js';
import { createWebhooks, type Webhooks } from './webhooks/index.js';

/** `plugin::<plugin>.<item>` split. */
function pluginItem(name: string): { plugin: string; item: string } {
  const [, plugin = '', item = ''] = /^plugin::([\w-]+)\.([\w-]+)$/.exec(name) ?? [];
  return { plugin, item };
}

const ROUTER_METHODS = { GET: 'get', POST: 'post', PUT: 'put', DELETE: 'delete' } as const;
const routerMethodOf = (method: PluginRoute['method']) => ROUTER_METHODS[method];
/** where the service listens when no host is set */
const EVERY_ADDRESS = '0.0.0.0';

/**
 * A plugin's start-up work failed: on what the app's lifecycle file registered (a GraphQL
 * extension the schema cannot take), or on the app's schemas; one line either way.
 */
function pluginStartFailure(plugin: string, err: unknown, lifecycleFile: string | undefined): Error {
  if (err instanceof ConfigError || err instanceof SchemaError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ExtensionError && lifecycleFile)
    return new ConfigError(lifecycleFile, undefined, `the ${plugin} plugin failed on what it registered: ${message}`);
  return new ConfigError(`plugin ${plugin}`, undefined, `cannot start on this app: ${message}`);
}

/** `config/server` `app.keys` (Strapi's Koa keys), as `strapi.server.app.keys` shows them. */
function serverKeys(config: ServiceConfig): string[] {
  const server = config.tree.server as { app?: { keys?: unknown } } | undefined;
  const keys = server?.app?.keys;
  return Array.isArray(keys) ? keys.map(String) : [];
}

/** Koa's `ctx.app` of this service's requests: its settings, `proxy` as the Express app trusts it now. */
function koaAppView(app: Express, config: ServiceConfig): KoaAppView {
  return {
    env: process.env.NODE_ENV || 'development',
    get proxy() {
      return Boolean(app.get('trust proxy'));
    },
    set proxy(on: boolean) {
      app.set('trust proxy', on);
    },
    keys: serverKeys(config),
    subdomainOffset: 2,
    proxyIpHeader: 'X-Forwarded-For',
    maxIpsCount: 0,
  };
}

export interface CreateServerOptions {
  /** the app directory (schemas/ + config/, or a Strapi v4 project); default: the current directory */
  appDir?: string;
  /** overrides of the configuration files (CLI flags, tests) */
  config?: ConfigOverrides;
  /** run the embedded engine without persistence */
  memory?: boolean;
  /** embedded engine: move damaged bytes of the data files aside instead of refusing to start */
  repair?: boolean;
  /** a ready database URI (tests); otherwise chosen by `selectDatabase` */
  databaseUri?: string;
  /**
   * The configuration, logger and database of a start begun before this module loaded
   * (database/early-start.ts): taken over as if made here (its database stopped on a failure).
   */
  early?: EarlyStart;
  logger?: Logger;
  register?(args: { app: ContentService }): void | Promise<void>;
  bootstrap?(args: { app: ContentService }): void | Promise<void>;
}

export interface ContentService {
  app: Express;
  context: ServiceContext;
  /** which database is in use, for the start-up log */
  database: string;
  /** listens; resolves with the bound address */
  start(options?: { port?: number; host?: string }): Promise<{ port: number; host: string; url: string }>;
  /** stops accepting, finishes in-flight requests (up to 10 s), closes the database */
  stop(): Promise<void>;
  /** a plugin's services, e.g. `app.plugin('graphql').service('extension')`; unknown names throw */
  plugin(name: string): { service(name: string): unknown };
  /** Strapi's event hub, webhook store and runner (`strapi.eventHub`...); `idle()` once every queued event was posted */
  webhooks: Pick<Webhooks, 'eventHub' | 'store' | 'query' | 'runner' | 'idle'>;
}

/**
 * Builds the whole service: configuration, schemas, database, models, plugins, middlewares,
 * routes, then the app's own `register` / `bootstrap` (its `src/index`). Does not listen.
 */
export async function createServer(options: CreateServerOptions = {}): Promise<ContentService> {
  const { early } = options;
  if (!early) beginAppModules(options.appDir ?? process.cwd());
  const config: ServiceConfig = early?.config ?? (await loadConfig(options.appDir ?? process.cwd(), options.config));
  const logger = options.logger ?? early?.logger ?? createLogger(config.env);
  const warn = (message: string) => logger.warn(message);
  const builtInNames = BUILT_IN_PLUGINS.map((p) => p.name);
  // the plugins the app installed from npm read their own config/plugins entries
  const installedPackages = findInstalledPlugins(config, builtInNames, warn);
  const ignored = config.ignored.filter((key) => !isInstalledPluginKey(installedPackages, key));
  if (ignored.length > 0) logger.info({ ignored }, `configuration not used by Content Service: ${ignored.join(', ')}`);
  for (const { file, key, suggestion } of config.typos)
    logger.warn(`${file}: unknown key "${key}" is ignored; did you mean "${suggestion}"?`);
  // as Strapi's, the global is set before the app's files load (some read strapi.config at their top)
  globalThis.strapi = loadingStrapi(config, logger);
  const lifecycle = await loadLifecycle(config.appDir);
  const plugins: Plugin[] = enabledPlugins(config);
  for (const plugin of plugins) plugin.checkConfig?.(config);
  const i18n = i18nSettings(config);

  // config/middlewares is resolved before the database starts: an entry that cannot be honoured stops here;
  // the app's middleware files it loads are code that runs, not code the schemas' notices list
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // Strapi sends none; hashing every body costs throughput
  if (config.server.proxy) app.set('trust proxy', true);
  setKoaAppView(app, koaAppView(app, config));
  const graphql = plugins.some((p) => p.name === 'graphql') ? graphqlConfig(config).endpoint : null;
  const middlewares = await buildMiddlewares({ app, config, logger, graphqlEndpoint: graphql });

  const routeFiles = await loadRouteFiles(config.appDir, warn);
  const appCodeFiles = await loadAppCode(config.appDir, warn);
  const localPlugins = await loadLocalPlugins(config, builtInNames, warn);
  const installedPlugins = await loadInstalledPlugins(installedPackages, config, warn);
  const extensions = await loadPluginExtensions(config.appDir, [
    ...plugins.map((p) => p.name),
    ...localPlugins.map((p) => p.name),
    ...installedPlugins.map((p) => p.name),
  ]);
  const runningCode = new Set([
    ...middlewares.custom.map((m) => m.file),
    ...routeFiles.map((r) => r.file),
    ...appCodeFiles.files,
    ...extensions.map((e) => e.file),
    ...localPlugins.map((p) => p.file),
  ]);
  // an installed plugin whose content-types this service cannot store is left out (warned)
  const { built, plugins: projectPlugins } = withStorablePlugins(
    inStrapiOrder([...localPlugins, ...installedPlugins], Object.keys(config.plugins)),
    (own) =>
      buildAppRegistry(
        config.appDir,
        [...plugins.flatMap((p) => p.contentTypes?.(config) ?? []), ...own.flatMap(pluginContentTypes)],
        { i18n: i18n !== null, customFields: customFieldTypes(config) },
        runningCode,
      ),
    warn,
  );
  const { registry } = built;
  // the schemas as loaded, then with what the app's extensions add to the plugins
  let loadedRegistry: AppRegistry = built;
  // plugins whose lifecycle functions threw (third-party ones only: a local plugin's throw stops start-up)
  const failedPlugins = new Set<string>();
  const runPluginHooks = (hook: 'register' | 'bootstrap' | 'destroy', app: StrapiApp) =>
    runPluginHook(projectPlugins, pluginHoldersOf(app), hook, app, failedPlugins, warn);
  const registerOrder = strapiPluginSteps({
    builtIns: plugins.map((p) => p.name),
    project: projectPlugins,
    declared: Object.keys(
      typeof config.tree.plugins === 'object' && config.tree.plugins !== null ? config.tree.plugins : {},
    ),
    dependencies: appDependencies(config.appDir),
  });
  const modelHooks = await loadModelLifecycles(config.appDir, registry);
  const dbLifecycles = createDbLifecycles(registry, modelHooks);
  // the app's code (src/index, lifecycles files, its middlewares) reaches the `strapi` object
  const cronTasks = configuredCronTasks(config);
  let hasAppCode =
    lifecycle !== undefined ||
    modelHooks.size > 0 ||
    middlewares.custom.length > 0 ||
    Object.keys(cronTasks).length > 0 ||
    appCodeFiles.customised ||
    extensions.length > 0 ||
    projectPlugins.length > 0;
  // the app's extensions and register hook may change a plugin's routes, and its own plugins have
  // routes: they are served as app routes
  const pluginRoutesPossible = lifecycle !== undefined || extensions.length > 0 || projectPlugins.length > 0;

  const database: DatabaseHandle = options.databaseUri
    ? { uri: options.databaseUri, description: 'MongoDB (given URI)', stop: async () => {} }
    : await (early?.database ??
        selectDatabase(config, { memory: options.memory ?? false, repair: options.repair, logger }));
  const connection = mongoose.createConnection(database.uri, { autoIndex: false, autoCreate: false });
  try {
    await connection.asPromise();
  } catch (err) {
    await database.stop();
    throw err;
  }
  // from here on, a failure closes the database before it is thrown (a held data directory stays free)
  const credentials = await CredentialsEpoch.start(
    database.uri,
    connection,
    credentialsEpochOptions(config.database.credentialsPollMs),
    logger,
  );
  const closeDatabase = async () => {
    await credentials.stop();
    await connection.close();
    await database.stop();
  };
  const models = new Models(connection, registry);
  await models.init().catch(async (err: unknown) => {
    await closeDatabase();
    throw err;
  });

  let authenticate: Authenticator = allowAll;
  let mediaUrlSigner: MediaUrlSigner | undefined;
  const context: ServiceContext = {
    config,
    registry,
    models,
    connection,
    logger,
    i18n,
    authenticate: withAppStrategies(
      (req) => authenticate(req),
      () => (strapi ? appContentApiStrategies(strapi) : []),
    ),
    lifecycles: dbLifecycles,
    credentials,
    mediaUrlSigner: () => mediaUrlSigner,
  };
  // what the plugins run in the background (the upload sweep) ends before the database closes
  let settleRecovery: { stop(): Promise<void> } | undefined;
  const stopPlugins = async () => {
    for (const plugin of plugins) await plugin.stop?.(context).catch(() => undefined);
    await settleRecovery?.stop();
    await flushSettled(context.models);
  };
  let webhooks: Webhooks;
  try {
    webhooks = createWebhooks(context, { media: plugins.some((p) => p.name === 'upload') });
  } catch (err) {
    await closeDatabase();
    throw err;
  }
  context.events = webhooks.events;
  // routes, policies and middlewares of the app's code are given `{ strapi }`; a handler named
  // by a string is an action of the app's controllers (or of a content-type's core controller)
  const endpoint: EndpointHost = {
    appDir: config.appDir,
    authenticate: (req) => context.authenticate(req),
    authenticateWith: (req, strategies) =>
      authenticateWithRouteStrategies(
        req,
        strategies,
        (request) => authenticate(request),
        strapi ? appContentApiStrategies(strapi) : [],
      ),
    strapi: () => {
      if (!strapi) throw new Error('an app route was composed before the strapi object existed');
      return strapi;
    },
    controllerHandler: (name, api) => code.controllerHandler(name, api ?? ''),
    pluginMiddleware(name, middlewareConfig) {
      const { plugin, item } = pluginItem(name);
      return strapi ? pluginHoldersOf(strapi).get(plugin)?.middleware(item, middlewareConfig) : undefined;
    },
    pluginPolicy(name) {
      const { plugin, item } = pluginItem(name);
      return strapi ? pluginHoldersOf(strapi).get(plugin)?.server.policies[item] : undefined;
    },
  };
  // the app's own handlers see a multipart body as koa-body gives it (fields and files), under its limit
  const appFileLimit = bodyFileLimit(config);
  const prepareAppRequest = (req: Request, res: Response) => readMultipartForApp(req, res, appFileLimit);
  const pluginAdminRoutes = createPluginAdminRoutes({
    errors: middlewares.errors,
    logger,
    prepareRequest: prepareAppRequest,
  });
  let contentApiRoutes: ContentApiRoutes;
  try {
    contentApiRoutes = createContentApiRoutes({
      prepareRequest: prepareAppRequest,
      files: routeFiles,
      service: context,
      apiPrefix: config.api.rest.prefix,
      endpoint,
      errors: middlewares.errors,
      logger,
      pluginRoutesPossible,
    });
  } catch (err) {
    await closeDatabase();
    throw err;
  }
  if (contentApiRoutes.handler) hasAppCode = true;
  // the app's controllers and services, made with the `strapi` object once it exists
  // `strapi.sanitizers` / `strapi.validators`: only an app with code can fill them
  const registries: AppRegistries | undefined = hasAppCode
    ? { sanitizers: createPathRegistry(), validators: createPathRegistry() }
    : undefined;
  if (registries) context.sanitizeAppInput = appInputSanitizer(context.registry, registries);
  const code = createAppCode(appCodeFiles, { service: context, strapi: () => strapi, registries });
  context.appControllerActions = () => [
    ...code.customActions(),
    ...(strapi ? [...pluginHoldersOf(strapi).values()].flatMap((holder) => holder.addedActions()) : []),
  ];
  context.appPluginService = (plugin, name) =>
    strapi ? pluginHoldersOf(strapi).get(plugin)?.changedService(name) : undefined;

  // the app's code (src/index, its middlewares' factories) reaches `strapi.server`: its Koa
  // middlewares and routes get their places in the chain, used once the code adds any
  const httpServer = createHttpServer(app);
  const appServer = hasAppCode
    ? createAppServer({
        prepareRequest: prepareAppRequest,
        httpServer,
        apiPrefix: config.api.rest.prefix,
        proxy: { get: () => Boolean(app.get('trust proxy')), set: (on) => app.set('trust proxy', on) },
        keys: serverKeys(config),
        source: lifecycle?.file ?? config.middlewares.file,
        endpoint,
        errors: middlewares.errors,
        logger,
        servedContentApiRoutes: () => [
          ...contentApiRoutes.listRoutes(),
          ...(strapi ? [...pluginHoldersOf(strapi).values()] : [])
            .filter((holder) => !servedByObject.has(holder.name))
            .flatMap((holder) => holder.contentApiRoutes())
            .map((route) => ({
              path: `${config.api.rest.prefix}${route.path}`,
              methods: layerMethods(String(route.method)),
            })),
        ],
        servedAdminRoutes: () => pluginAdminRoutes.listRoutes(),
      })
    : undefined;
  if (appServer) app.use(appServer.first);
  app.use(
    ...asOneLayer([
      ...middlewares.handlers,
      // whatever config/middlewares says: a path that cannot be decoded and a body nested too deep
      // stop here, before a route or a parser of its own recurses into them
      pathGuard,
      bodyDepthGuard,
      // the body parsers' callbacks run outside the request's async context: it is entered again. Only
      // app code reads it (`strapi.requestContext`): without any, requests run without the async
      // context tracking an AsyncLocalStorage turns on for every promise
      ...(hasAppCode ? [enterRequestContext] : []),
    ]),
  );
  if (appServer) app.use(appServer.later, appServer.routes);

  const api = Router();
  api.use(async (req, _res, next) => {
    setRequestAuth(req, await context.authenticate(req));
    next();
  });
  // the plugins' routes, entered only by paths that can match one (segment-gate.ts)
  const pluginApi = Router();
  const rootRouter = Router();
  const pluginServices = new Map<string, Map<string, unknown>>();
  const pluginRoutes = new Map<
    string,
    { routes: PluginRoute[]; middlewares: Readonly<Record<string, PluginRouteMiddleware>> }
  >();
  // plugins whose routes the app changed: their own direct routes step aside for the app's version
  const servedByObject = new Set<string>();
  try {
    for (const plugin of plugins) {
      const services = new Map<string, unknown>();
      pluginServices.set(plugin.name, services);
      await plugin.register?.({
        ...context,
        router: pluginApi,
        rootRouter,
        setAuthenticator: (fn) => {
          authenticate = fn;
        },
        setMediaUrlSigner: (signer) => {
          mediaUrlSigner = signer;
        },
        koaContextOf: detachedKoaContext,
        setService: (name, service) => {
          services.set(name, service);
          // a policy named in the GraphQL resolversConfig is the app's (or a plugin's), as a route's
          if (service instanceof ExtensionService)
            service.namedPolicies = (entry) => resolveNamedPolicy(endpoint, entry);
        },
        serveRoutes: (routes, routeMiddlewares = {}) => {
          pluginRoutes.set(plugin.name, { routes, middlewares: routeMiddlewares });
          const gate: RequestHandler[] = pluginRoutesPossible
            ? [(_req, _res, next) => next(servedByObject.has(plugin.name) ? 'route' : undefined)]
            : [];
          for (const route of routes) {
            const path = prefixedPath(route.config?.prefix ?? `/${plugin.name}`, route.path);
            const guards = (route.config?.middlewares ?? []).flatMap((name) => {
              const own = routeMiddlewares[name.slice(name.lastIndexOf('.') + 1)];
              return own ? [own.handler] : [];
            });
            const info = pluginRouteInfo(plugin.name, route);
            const matched: RequestHandler = (req, _res, next) => {
              setRequestRoute(req, info);
              next();
            };
            pluginApi[routerMethodOf(route.method)](path, ...gate, matched, ...guards, (req, res) =>
              route.run(req, res),
            );
          }
        },
      });
    }
  } catch (err) {
    await closeDatabase();
    throw err;
  }
  const restActionOptions = { code, errors: middlewares.errors, logger, prepareRequest: prepareAppRequest, registries };
  api.use(segmentGate(pluginApi));
  api.use(
    contentRoutes(context, (uid) => {
      const settings = contentApiRoutes.coreSettings(uid);
      const appAction = restActions(restActionOptions, uid);
      return appAction ? { ...(settings ?? DEFAULT_SETTINGS), appAction } : settings;
    }),
  );
  // the route files' routes first: Strapi serves the apis' routes before the plugins'
  if (contentApiRoutes.handler) app.use(contentApiRoutes.handler);
  app.use(config.api.rest.prefix, api);
  app.use(rootRouter);
  // Strapi's admin API after its content API, at no prefix
  if (projectPlugins.length > 0) app.use(pluginAdminRoutes.handler);
  app.use('/admin', webhooks.adminRoutes);
  // routes the app added in bootstrap: Strapi registers them after the apis' and plugins' routers
  if (appServer) app.use(appServer.laterRoutes);
  app.get(HEALTH_PATH, healthCheck(connection));
  for (const handler of middlewares.fallback) app.use(handler);
  for (const handler of middlewares.closing) app.use(handler);

  const cron = hasAppCode ? createCronService(() => strapi, logger) : undefined;
  let server: Server | undefined;
  const service: ContentService = {
    app,
    context,
    webhooks,
    database: database.description,
    async start(on = {}) {
      const port = on.port ?? config.server.port;
      const host = on.host ?? config.server.host;
      // the engine decodes a persisted start's documents while the service starts: the service
      // listens once they are, so that its first reads do not wait for them
      await database.ready;
      server = await listen(httpServer, port, host ?? EVERY_ADDRESS);
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      // what the app's code reads is where the server listens (a port 0 is the one the system chose)
      config.server = { ...config.server, port: bound, host };
      strapi?.config.set('server.port', bound).set('port', bound);
      if (host !== undefined) strapi?.config.set('server.host', host).set('host', host);
      const listening = host ?? EVERY_ADDRESS;
      return {
        port: bound,
        host: listening,
        url: `http://${listening === EVERY_ADDRESS ? '127.0.0.1' : listening}:${bound}`,
      };
    },
    plugin(name) {
      const services = pluginServices.get(name);
      if (!services) throw new Error(`plugin "${name}" is not enabled`);
      return {
        service(serviceName) {
          if (!services.has(serviceName)) throw new Error(`plugin "${name}" has no service "${serviceName}"`);
          return services.get(serviceName);
        },
      };
    },
    async stop() {
      cron?.destroy();
      const pendingQueries = strapi ? appPendingQueries(strapi) : undefined;
      pendingQueries?.stopping();
      if (strapi)
        await runExtendedBuiltInHooks(
          extensions,
          pluginHoldersOf(strapi),
          plugins.map((p) => p.name),
          'destroy',
          strapi,
        ).catch((err: unknown) => warn(err instanceof Error ? err.message : String(err)));
      if (strapi) await runPluginHooks('destroy', strapi);
      if (strapi) await lifecycle?.run('destroy', strapi);
      if (server) {
        const s = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            s.closeAllConnections();
            resolve();
          }, 10_000);
          timer.unref();
          s.close(() => {
            clearTimeout(timer);
            resolve();
          });
          s.closeIdleConnections();
        });
      }
      // what the destroy functions started without awaiting ends first, as in Strapi (pending-queries.ts)
      await pendingQueries?.settle(5_000);
      await stopPlugins();
      // the events of the last requests are posted before the database goes
      await webhooks.stop();
      await closeDatabase();
    },
  };
  // the registry (and the models) again where the app's code changed content-types' attributes
  const settleSchemaEdits = async (changes: Map<string, AttributeChanges>): Promise<AppRegistry> => {
    if (changes.size === 0) return loadedRegistry;
    const rebuilt = loadedRegistry.rebuild(changes, (uid) =>
      schemaChangers(uid, extensions, lifecycle?.file, config.appDir),
    );
    registry.replaceWith(rebuilt.registry);
    await models.refresh();
    return rebuilt;
  };
  // the app's lifecycle functions and its own middlewares' factories are given `{ strapi }`
  const strapi: StrapiApp | undefined = hasAppCode
    ? createStrapiApp({
        config,
        logger,
        registry,
        service: context,
        dbLifecycles,
        enabledPlugins: plugins.map((p) => p.name),
        knownPlugins: builtInNames,
        pluginServices: (plugin) => Object.fromEntries(pluginServices.get(plugin) ?? []),
        pluginConfig: (name) => plugins.find((p) => p.name === name)?.appConfig?.(context),
        pluginRoutes: (plugin) => pluginRoutes.get(plugin),
        projectPlugins,
        server: appServer?.server,
        cron,
        code,
        webhooks,
        apiRouters: () => contentApiRoutes.routers(),
        registries,
      })
    : undefined;
  try {
    if (strapi) globalThis.strapi = strapi;
    // Strapi's plugin loader applies the extensions before any register hook; what they and the
    // register hooks change of the content-types' attributes is taken after register
    if (strapi) schemaEditsOf(strapi).begin(pluginHoldersOf(strapi));
    if (strapi) await applyPluginExtensions(extensions, pluginHoldersOf(strapi));
    const added = strapi ? addedPluginTypes(pluginHoldersOf(strapi), registry, extensions) : [];
    if (added.length > 0) {
      loadedRegistry = built.withTypes(added);
      registry.replaceWith(loadedRegistry.registry);
      await models.refresh();
    }
    if (strapi) schemaEditsOf(strapi).open(pluginHoldersOf(strapi));
    const extendedHooks = (names: string[], hook: 'register' | 'bootstrap' | 'destroy') =>
      strapi ? runExtendedBuiltInHooks(extensions, pluginHoldersOf(strapi), names, hook, strapi) : undefined;
    // every plugin's register in Strapi's order (what an extension put on a built-in plugin's object
    // at that plugin's place; the built-ins' own register ran when the server was built), then the app's
    if (strapi)
      for (const step of registerOrder)
        if (step.kind === 'built-in') await extendedHooks([step.name], 'register');
        else await runPluginHook([step.plugin], pluginHoldersOf(strapi), 'register', strapi, failedPlugins, warn);
    if (lifecycle && strapi) await lifecycle.run('register', strapi);
    await options.register?.({ app: service });
    // where Strapi builds its database metadata from the content-types: after register
    const settled = strapi ? await settleSchemaEdits(schemaEditsOf(strapi).close()) : loadedRegistry;
    // the plugins' content-type definitions' own hooks join the lifecycles files' (an api type's file is its own)
    if (strapi)
      for (const [uid, hooks] of pluginTypeLifecycles(pluginHoldersOf(strapi), registry))
        if (!modelHooks.has(uid)) modelHooks.set(uid, hooks);
    const [unfixed] = settled.registry.deferred;
    if (unfixed) throw unfixed;
    const { notices } = settled;
    // a custom field no mapping knows waited for the app's register hooks, which may register it
    const heldCustomFieldNotices = notices.filter((notice) => notice.unknownCustomField !== undefined);
    for (const notice of notices) if (notice.unknownCustomField === undefined) logger[notice.level](notice.message);
    settleCustomFields(registry, strapi ? registeredCustomFields(strapi) : new Map(), heldCustomFieldNotices, logger);
    // where Strapi instantiates the controllers its routes name: after register
    code.instantiate();
    appServer?.registered();
    // where Strapi v4 calls the middlewares' factories: after register, before any bootstrap
    if (strapi) for (const middleware of middlewares.custom) await middleware.start(strapi);
    // a plugin whose routes or actions the app changed is served as its object now says
    if (strapi)
      for (const holder of pluginHoldersOf(strapi).values())
        if (pluginRoutesPossible && holder.servedByObject()) {
          servedByObject.add(holder.name);
          contentApiRoutes.addPluginRoutes(holder.name, holder.contentApiRoutes(), {
            ...endpoint,
            controllerHandler: (name) => holder.handler(name),
          });
        }
    // their admin routes open to anyone (`auth: false`) are served; the others need the admin panel
    const adminOnly: string[] = [];
    if (strapi)
      for (const own of projectPlugins) {
        const holder = pluginHoldersOf(strapi).get(own.name);
        if (!holder) continue;
        const unserved = await pluginAdminRoutes.add(own.name, holder.adminRoutes(), {
          ...endpoint,
          controllerHandler: (name) => holder.handler(name),
        });
        if (unserved > 0) adminOnly.push(own.name);
      }
    if (adminOnly.length > 0)
      logger.info(
        `the admin routes of plugins are not served (this service has no admin panel): ${adminOnly.join(', ')}`,
      );
    // Strapi composes the apis' routes here too: their middlewares' factories run after register
    await contentApiRoutes.compose();
    const bootstrapBuiltIn = async (late: boolean) => {
      const group = plugins.filter((p) => (p.bootstrapsLate ?? false) === late);
      for (const plugin of group) {
        try {
          await plugin.bootstrap?.(context);
        } catch (err) {
          throw pluginStartFailure(plugin.name, err, lifecycle?.file);
        }
      }
      await extendedHooks(
        group.map((p) => p.name),
        'bootstrap',
      );
    };
    // what a stopped service committed without settling it, before anything reads or writes
    settleRecovery = await startSettleRecovery(context.models, context.registry, logger);
    await bootstrapBuiltIn(false);
    if (strapi) await runPluginHooks('bootstrap', strapi);
    await bootstrapBuiltIn(true);
    if (lifecycle && strapi) await lifecycle.run('bootstrap', strapi);
    await options.bootstrap?.({ app: service });
    await appServer?.settle();
    // config/server cron tasks, then the jobs start (Strapi's order: after bootstrap)
    cron?.add(cronTasks).start();
  } catch (err) {
    await stopPlugins();
    await closeDatabase();
    throw err;
  }
  return service;
}
