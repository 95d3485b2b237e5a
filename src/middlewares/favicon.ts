import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import serveFavicon from 'serve-favicon';
import type { MiddlewareFactory } from './types.js';

/**
 * `strapi::favicon`: `/favicon.ico` answered with the app's `favicon.png` (or `config.path`), else
 * its `favicon.ico`, cached `maxAge` ms (one day). Without either file the request goes on (a 404
 * rather than Strapi's 500).
 */
export const favicon: MiddlewareFactory = (config, { config: service }) => {
  const maxAge = typeof config.maxAge === 'number' ? config.maxAge : 86_400_000;
  const configured = resolve(service.appDir, typeof config.path === 'string' ? config.path : 'favicon.png');
  const path = existsSync(configured) ? configured : resolve(service.appDir, 'favicon.ico');
  if (!existsSync(path)) return {};
  return { handlers: [serveFavicon(path, { maxAge })] };
};
