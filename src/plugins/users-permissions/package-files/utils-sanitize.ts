/** `@strapi/plugin-users-permissions/server/utils/sanitize`: the `sanitize` of its `server/utils` */
import { sanitize } from './utils.js';

export const { sanitizers, visitors } = sanitize;
