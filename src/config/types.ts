export interface PluginConfig {
  enabled: boolean;
  config: Record<string, unknown>;
}

export interface ServiceConfig {
  server: { host: string; port: number; /** request body limit, e.g. "1mb" */ bodyLimit: string };
  database: {
    /** a real MongoDB (env MONGODB_URI) */
    uri?: string;
    /** embedded engine persistence directory; absent = in memory */
    dataDir?: string;
  };
  api: {
    rest: {
      defaultLimit: number;
      maxLimit: number;
      withCount: boolean;
      /** nested populate levels a request may ask for (`a.b.c` is 3) */
      maxPopulateDepth: number;
      /** relations and media a request may populate in all (each one a `$lookup`) */
      maxPopulateRelations: number;
    };
  };
  plugins: Record<string, PluginConfig>;
  /** role type → actions, applied additively at start-up */
  permissions: Record<string, string[]>;
  /** app directory (schemas/ + config/) */
  appDir: string;
  env: 'development' | 'production' | 'test';
}

export type ConfigOverrides = {
  [K in keyof ServiceConfig]?: ServiceConfig[K] extends Record<string, unknown>
    ? Partial<ServiceConfig[K]>
    : ServiceConfig[K];
};
