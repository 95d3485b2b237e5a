/**
 * `@strapi/strapi/lib/core-api/service` (4.0 to 4.14; `dist/` from 4.15) for a project that
 * requires it: `getFetchParams`, the core service's default read params (published entries only),
 * which services copied from Strapi's core service call.
 */
export { getFetchParams } from '../core-service.js';
