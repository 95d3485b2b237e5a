export type { ServiceConfig, PluginConfig, ConfigOverrides } from './types.js';
export type { MiddlewareEntry } from './middleware-list.js';
export type { EnvHelper } from './env-helper.js';
export { ConfigError } from './config-error.js';
export { env } from './env-helper.js';
export { loadConfig } from './load-config.js';
export { beginAppModules, importAppModule, missingModuleMessage } from './load-module.js';
export { nearMiss } from './near-miss.js';
export { namedModuleFile } from './named-module.js';
