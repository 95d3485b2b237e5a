/**
 * `@strapi/plugin-users-permissions/server/services/jwt`, Strapi's factory `({ strapi }) => service`,
 * for an app that wraps it (`({ strapi }) => ({ ...jwt({ strapi }), issue(…) { … } })`): it makes
 * the plugin's own jwt service (`issue`, `verify`, `getToken`), whatever the app's object holds.
 */
import { ownServiceFactory } from './own-service.js';

const jwtServiceFactory = ownServiceFactory('jwt');
export { jwtServiceFactory as 'module.exports' };
