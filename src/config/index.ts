export type { ServiceConfig, PluginConfig, ConfigOverrides } from './types.js';
export { ConfigError } from './config-error.js';
export { loadConfig, pluginEnabled } from './load-config.js';
export { readConfigFile } from './read-config-file.js';
