import type { Request, RequestHandler, Router } from 'express';
import type { Authenticator } from '../access/ability.js';
import type { ServiceConfig } from '../config/index.js';
import type { ContentTypeSource } from '../content-types/index.js';
import type { MediaUrlSigner, ServiceContext } from '../service-context.js';

export interface PluginRegisterContext extends ServiceContext {
  /** mounted under `/api` before the content-type routes */
  router: Router;
  /** replaces how requests are authenticated (users-permissions sets JWT + API tokens) */
  setAuthenticator(authenticate: Authenticator): void;
  /** mounted at the root (after `/api`, before the 404 handler): endpoints outside `/api`, e.g. `/graphql` */
  rootRouter: Router;
  /** signs the populated files of every read (a private upload provider) */
  setMediaUrlSigner(signer: MediaUrlSigner): void;
  /**
   * Strapi's Koa context of a request, for code that expects one where no Koa middleware runs
   * (GraphQL resolvers' `context.koaContext`): its `state` is `state`; a body set on it is dropped.
   */
  koaContextOf(req: Request, state: object): object;
  /** makes `app.plugin(<plugin name>).service(name)` return `service` (the programmatic API) */
  setService(name: string, service: unknown): void;
  /**
   * The plugin's content-API routes, as Strapi's plugin declares them (its `routes['content-api']`):
   * served directly on the API router, and listed on the plugin object an app's extension and
   * register hook may change (then served as the app left them).
   */
  serveRoutes(routes: PluginRoute[], middlewares?: Readonly<Record<string, PluginRouteMiddleware>>): void;
}

/**
 * A plugin's middleware (`plugin::<plugin>.<name>`): `handler` runs on the plugin's own routes;
 * `withConfig` makes one with the config an app gives it (a `{ name, config }` entry of
 * config/middlewares or of a route's `middlewares`), as Strapi calls a middleware factory.
 */
export interface PluginRouteMiddleware {
  handler: RequestHandler;
  withConfig(config: Record<string, unknown>): RequestHandler;
}

/** One content-API route of a plugin, in Strapi's words, with the handler that serves it directly. */
export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** below `/<plugin name>` unless `config.prefix` says otherwise ('' for the users-permissions auth and user routes) */
  path: string;
  /** `<controller>.<action>`: the plugin object's controller action that answers the route */
  handler: string;
  /** Strapi's route config: `prefix`, and `middlewares` by name (`plugin::<plugin>.<name>`, served from `serveRoutes`' map) */
  config?: { prefix?: string; middlewares?: string[] };
  /** answers the request (its own permission check included): on Express's response, or on a Koa context's */
  run(req: Request, res: PluginAnswer): unknown;
}

/** What a plugin route's handler answers with: Express's response has it, and so does a Koa context's stand-in. */
export interface PluginAnswer {
  status(code: number): PluginAnswer;
  json(body: unknown): unknown;
  redirect(url: string): unknown;
  /** one response header (the OAuth connect flow's `Set-Cookie`) */
  setHeader(name: string, value: string): unknown;
}

/** A built-in plugin: its content-types, routes, authentication and start-up work. */
export interface Plugin {
  name: string;
  /** reads the plugin's settings before the database starts: a value that cannot be used throws a ConfigError */
  checkConfig?(config: ServiceConfig): void;
  /** content-types owned by the plugin, added to the registry before it is built */
  contentTypes?(config: ServiceConfig): ContentTypeSource[];
  /** after the models exist: routes and hooks */
  register?(ctx: PluginRegisterContext): void | Promise<void>;
  /**
   * the plugin's config as Strapi's plugin container holds it once the plugin registered (its
   * defaults under the app's, secrets resolved), which `strapi.config.get('plugin.<name>')` and
   * `strapi.plugin(name).config(path)` answer; absent: the app's config as given
   */
  appConfig?(ctx: ServiceContext): Record<string, unknown>;
  /** after indexes exist: seed data (roles, permissions) */
  bootstrap?(ctx: ServiceContext): Promise<void>;
  /** when the service stops (or its start fails after bootstrap began): ends what bootstrap left running */
  stop?(ctx: ServiceContext): Promise<void>;
  /**
   * bootstrap after the project's plugins: Strapi starts an installed plugin (`@strapi/plugin-graphql`)
   * after those `config/plugins` declares, whose bootstrap may prepare what its extensions read
   */
  bootstrapsLate?: boolean;
}
