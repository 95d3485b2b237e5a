import type { Router } from 'express';
import type { Authenticator } from '../access/ability.js';
import type { ServiceConfig } from '../config/index.js';
import type { ContentTypeSource } from '../content-types/index.js';
import type { ServiceContext } from '../service-context.js';

export interface PluginRegisterContext extends ServiceContext {
  /** mounted under `/api` before the content-type routes */
  router: Router;
  /** replaces how requests are authenticated (users-permissions sets JWT + API tokens) */
  setAuthenticator(authenticate: Authenticator): void;
  /** mounted at the root (after `/api`, before the 404 handler): endpoints outside `/api`, e.g. `/graphql` */
  rootRouter: Router;
  /** makes `app.plugin(<plugin name>).service(name)` return `service` (the programmatic API) */
  setService(name: string, service: unknown): void;
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
  /** after indexes exist: seed data (roles, permissions) */
  bootstrap?(ctx: ServiceContext): Promise<void>;
}
