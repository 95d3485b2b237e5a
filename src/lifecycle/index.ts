export { loadLifecycle, type AppLifecycle } from './load-lifecycle.js';
export { createStrapiApp, type StrapiApp, type LifecycleHost } from './strapi-app.js';
export { UnsupportedStrapiApi } from './unsupported.js';
export { createDbLifecycles, type DbLifecyclesProvider } from './db-lifecycles.js';
export { loadModelLifecycles } from './model-lifecycles.js';
export { createAppServer, type StrapiServer } from './strapi-server.js';
export { configuredCronTasks, createCronService, type CronService } from './cron.js';
export { loadRouteFiles } from './route-files.js';
export { createContentApiRoutes, type ContentApiRoutes } from './content-api-routes.js';
