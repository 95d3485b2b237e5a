export { loadLifecycle, type AppLifecycle } from './load-lifecycle.js';
export {
  createStrapiApp,
  pluginHoldersOf,
  appContentApiStrategies,
  appPendingQueries,
  registeredCustomFields,
  loadingStrapi,
  runningStrapi,
  schemaEditsOf,
  type StrapiApp,
  type LifecycleHost,
} from './strapi-app.js';
export { settleCustomFields } from './custom-fields.js';
export { schemaChangers } from './schema-edits.js';
export { addedPluginTypes } from './added-plugin-types.js';
export { pluginTypeLifecycles } from './plugin-type-lifecycles.js';
export { applyPluginExtensions, loadPluginExtensions, runExtendedBuiltInHooks } from './plugin-extensions.js';
export { loadLocalPlugins } from './local-plugins.js';
export {
  appDependencies,
  findInstalledPlugins,
  isInstalledPluginKey,
  loadInstalledPlugins,
  withStorablePlugins,
} from './installed-plugins.js';
export { inStrapiOrder, pluginContentTypes, runPluginHook, type LoadedPlugin } from './plugin-loader.js';
export { strapiPluginSteps } from './plugin-order.js';
export { UnsupportedStrapiApi } from './unsupported.js';
export { createDbLifecycles, type DbLifecyclesProvider } from './db-lifecycles.js';
export { loadModelLifecycles } from './model-lifecycles.js';
export { createAppServer, type StrapiServer } from './strapi-server.js';
export type { EndpointHost } from './route-endpoint.js';
export { layerMethods, resolveNamedPolicy } from './route-endpoint.js';
export { configuredCronTasks, createCronService, type CronService } from './cron.js';
export { loadRouteFiles } from './route-files.js';
export { createContentApiRoutes, type ContentApiRoutes } from './content-api-routes.js';
export { createAppCode, loadAppCode, type AppCode } from './app-controllers.js';
export { restActions } from './rest-actions.js';
export { appInputSanitizer, createPathRegistry, type AppRegistries } from './sanitizer-registries.js';
export { prefixedPath } from './plugin-objects.js';
export { createPluginAdminRoutes } from './plugin-admin-routes.js';
