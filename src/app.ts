import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { Router, type Express } from 'express';
import mongoose from 'mongoose';
import { pinoHttp } from 'pino-http';
import qs from 'qs';
import { allowAll, type Authenticator } from './access/ability.js';
import { loadConfig, type ConfigOverrides, type ServiceConfig } from './config/index.js';
import { loadSchemas, Registry } from './content-types/index.js';
import { selectDatabase, type DatabaseHandle } from './database/select-database.js';
import { createLogger, type Logger } from './logger.js';
import { Models } from './models/index.js';
import { enabledPlugins, type Plugin } from './plugins/index.js';
import { i18nSettings } from './plugins/i18n/index.js';
import { contentRoutes } from './rest/content-routes.js';
import { bodyDepthGuard } from './rest/body-depth-guard.js';
import { errorMiddleware, notFound } from './rest/error-middleware.js';
import { HEALTH_PATH, healthCheck, isHealthCheck } from './rest/health.js';
import { pathGuard } from './rest/path-guard.js';
import { setRequestAuth } from './operations/request-context.js';
import type { ServiceContext } from './service-context.js';

export interface CreateServerOptions {
  /** the app directory (schemas/ + config/); default: the current directory */
  appDir?: string;
  /** overrides of the configuration files (CLI flags, tests) */
  config?: ConfigOverrides;
  /** run the embedded engine without persistence */
  memory?: boolean;
  /** a ready database URI (tests); otherwise chosen as DESIGN.md §3 says */
  databaseUri?: string;
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
}

const QS_OPTIONS = { depth: 20, arrayLimit: 100, parameterLimit: 1000, strictDepth: false } as const;

/** Builds the whole service: configuration, schemas, database, models, plugins, routes. Does not listen. */
export async function createServer(options: CreateServerOptions = {}): Promise<ContentService> {
  const config: ServiceConfig = await loadConfig(options.appDir ?? process.cwd(), options.config);
  const logger = options.logger ?? createLogger(config.env);
  const plugins: Plugin[] = enabledPlugins(config);
  const i18n = i18nSettings(config);

  const loaded = loadSchemas(config.appDir);
  const pluginTypes = plugins.flatMap((p) => p.contentTypes?.(config) ?? []);
  const registry = Registry.build([...pluginTypes, ...loaded.contentTypes], loaded.components, { i18n: i18n !== null });

  const database: DatabaseHandle = options.databaseUri
    ? { uri: options.databaseUri, description: 'MongoDB (given URI)', stop: async () => {} }
    : await selectDatabase(config, { memory: options.memory ?? false });
  const connection = mongoose.createConnection(database.uri, { autoIndex: false, autoCreate: false });
  try {
    await connection.asPromise();
  } catch (err) {
    await database.stop();
    throw err;
  }
  const models = new Models(connection, registry);
  await models.init();

  let authenticate: Authenticator = allowAll;
  const context: ServiceContext = {
    config,
    registry,
    models,
    connection,
    logger,
    i18n,
    authenticate: (req) => authenticate(req),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', (str: string) => qs.parse(str, QS_OPTIONS));
  app.set('etag', false); // Strapi sends none; hashing every body costs throughput
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req.headers['x-request-id'] as string | undefined) ?? randomUUID(),
      autoLogging: config.env !== 'test',
      customLogLevel: (req, res) => (isHealthCheck(req) ? (res.statusCode >= 500 ? 'warn' : 'debug') : 'info'),
      // one short line per request (method, url, status, time), as Strapi logs; no headers
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(pathGuard);
  app.use(
    express.json({ limit: config.server.bodyLimit, strict: false, type: ['application/json', 'application/*+json'] }),
  );
  app.use(bodyDepthGuard);

  const api = Router();
  api.use(async (req, _res, next) => {
    setRequestAuth(req, await context.authenticate(req));
    next();
  });
  const pluginRouter = Router();
  const rootRouter = Router();
  const pluginServices = new Map<string, Map<string, unknown>>();
  for (const plugin of plugins) {
    const services = new Map<string, unknown>();
    pluginServices.set(plugin.name, services);
    await plugin.register?.({
      ...context,
      router: pluginRouter,
      rootRouter,
      setAuthenticator: (fn) => {
        authenticate = fn;
      },
      setService: (name, service) => {
        services.set(name, service);
      },
    });
  }
  api.use(pluginRouter);
  api.use(contentRoutes(context));
  app.use('/api', api);
  app.use(rootRouter);
  app.get(HEALTH_PATH, healthCheck(connection));
  app.use(notFound);
  app.use(errorMiddleware(logger));

  let server: Server | undefined;
  const service: ContentService = {
    app,
    context,
    database: database.description,
    async start(listen = {}) {
      const port = listen.port ?? config.server.port;
      const host = listen.host ?? config.server.host;
      server = await new Promise<Server>((resolve, reject) => {
        const s = app.listen(port, host, () => resolve(s));
        s.once('error', reject);
      });
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      return { port: bound, host, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` };
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
      await connection.close();
      await database.stop();
    },
  };
  await options.register?.({ app: service });
  for (const plugin of plugins) await plugin.bootstrap?.(context);
  await options.bootstrap?.({ app: service });
  return service;
}
