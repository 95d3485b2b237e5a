export { createServer, type ContentService, type CreateServerOptions } from './app.js';
export type { ServiceConfig } from './config/index.js';
