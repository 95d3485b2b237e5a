import compressionPackage from 'compression';
import type { MiddlewareFactory } from './types.js';

/** `strapi::compression`: gzip/deflate/br answers above `threshold` bytes (1024, koa-compress's default). */
export const compression: MiddlewareFactory = (config) => ({
  handlers: [
    compressionPackage({
      threshold: typeof config.threshold === 'number' || typeof config.threshold === 'string' ? config.threshold : 1024,
    }),
  ],
});
