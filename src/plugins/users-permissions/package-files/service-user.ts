/**
 * `@strapi/plugin-users-permissions/server/services/user`, Strapi's factory `({ strapi }) => service`,
 * for an app that wraps it: it makes the plugin's own user service (`add`, `edit`, `fetch`, …),
 * whatever the app's object holds.
 */
import { ownServiceFactory } from './own-service.js';

const userServiceFactory = ownServiceFactory('user');
export { userServiceFactory as 'module.exports' };
