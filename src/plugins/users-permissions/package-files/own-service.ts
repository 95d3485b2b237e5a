/**
 * What Strapi's service factories of the package (`server/services/jwt`, `server/services/user`)
 * make: the plugin's own service on the `strapi` given to the factory (else the global one), for
 * an app that wraps or recomposes them.
 */
import { ownPluginService } from '../../own-services.js';

export type ServiceFactory = (context?: { strapi?: unknown }) => unknown;

export function ownServiceFactory(name: string): ServiceFactory {
  return (context) => {
    const service =
      ownPluginService(context?.strapi, 'users-permissions', name) ??
      ownPluginService((globalThis as { strapi?: unknown }).strapi, 'users-permissions', name);
    if (service === undefined)
      throw new Error(`the users-permissions ${name} service needs a running Strapi application with the plugin`);
    return service;
  };
}
