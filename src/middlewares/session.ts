import type { MiddlewareFactory } from './types.js';

/** `strapi::session`: accepted; the content API keeps no sessions (its callers send a JWT or an API token). */
export const session: MiddlewareFactory = () => ({});
