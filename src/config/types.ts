import type { MiddlewareEntry } from './middleware-list.js';

export interface ConfigTypo {
  file: string;
  /** dotted, from the file's top */
  key: string;
  suggestion: string;
}

export interface PluginConfig {
  enabled: boolean;
  config: Record<string, unknown>;
  /** a local plugin's folder (`./src/plugins/<name>`), relative to the app */
  resolve?: string;
}

export interface ServiceConfig {
  server: {
    /**
     * HOST, `--host` or `server.host`; undefined when none is set: the service listens on every
     * address (0.0.0.0) and `strapi.config` answers Strapi's default, the machine's name (server-tree.ts)
     */
    host: string | undefined;
    port: number;
    /** the public URL of the server (`server.url`), when configured */
    url?: string;
    /** trust `X-Forwarded-*` headers (`server.proxy`) */
    proxy: boolean;
    /** static files served by `strapi::public` (`server.dirs.public`, default `<app>/public`) */
    publicDir: string;
  };
  /** the API-token salt (`admin.apiToken.salt`), when configured */
  admin: { apiTokenSalt?: string };
  database: {
    /** a real MongoDB (env MONGODB_URI) */
    uri?: string;
    /** embedded engine persistence directory; absent = in memory */
    dataDir?: string;
    /** how often each instance reads the credentials epoch (env CREDENTIALS_POLL_MS, ms) */
    credentialsPollMs: number;
  };
  api: {
    rest: {
      prefix: string;
      defaultLimit: number;
      maxLimit: number;
      withCount: boolean;
      /** nested populate levels a request may ask for (`a.b.c` is 3) */
      maxPopulateDepth: number;
      /** relations and media a request may populate in all (each one a `$lookup`) */
      maxPopulateRelations: number;
      /** ms each database read of a REST or GraphQL request may take (sent as maxTimeMS); 0: no limit */
      timeBudgetMs: number;
    };
  };
  plugins: Record<string, PluginConfig>;
  /** role type → actions, applied additively at start-up */
  permissions: Record<string, string[]>;
  /** `config/middlewares` (Strapi's default list when absent) and the file it came from */
  middlewares: { file: string; entries: MiddlewareEntry[] };
  /** the merged configuration files, as `strapi.config.get(path)` reads them (`plugin.<name>` included) */
  tree: Record<string, unknown>;
  /** configuration keys present but not used by the service (logged once at start-up) */
  ignored: string[];
  /** a configuration key not used that is one slip away from one that is (warned at start-up) */
  typos: ConfigTypo[];
  /** the file that sets `name` + dotted `path` (its environment file when that sets it), for messages */
  fileOf(name: string, path?: string): string;
  /** app directory (schemas/ + config/) */
  appDir: string;
  env: 'development' | 'production' | 'test';
}

export type ConfigOverrides = {
  [K in Exclude<keyof ServiceConfig, 'api'>]?: ServiceConfig[K] extends Record<string, unknown>
    ? Partial<ServiceConfig[K]>
    : ServiceConfig[K];
} & { api?: { rest?: Partial<ServiceConfig['api']['rest']> } };
