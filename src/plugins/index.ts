import type { ServiceConfig } from '../config/index.js';
import { contentTypeBuilderPlugin } from './content-type-builder/index.js';
import { emailPlugin } from './email/index.js';
import { graphqlPlugin } from './graphql/index.js';
import { i18nPlugin } from './i18n/index.js';
import type { Plugin } from './types.js';
import { uploadPlugin } from './upload/index.js';
import { usersPermissionsPlugin } from './users-permissions/index.js';

export type { Plugin, PluginRegisterContext, PluginRoute, PluginRouteMiddleware } from './types.js';

/** Every plugin Content Service has, in registration order. */
export const BUILT_IN_PLUGINS: readonly Plugin[] = [
  i18nPlugin,
  uploadPlugin,
  emailPlugin,
  usersPermissionsPlugin,
  contentTypeBuilderPlugin,
  graphqlPlugin,
];

/** The built-in plugins the configuration turns on, in registration order. */
export function enabledPlugins(config: ServiceConfig): Plugin[] {
  return BUILT_IN_PLUGINS.filter((plugin) => config.plugins[plugin.name]?.enabled !== false);
}
