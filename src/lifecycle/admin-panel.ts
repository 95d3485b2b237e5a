/**
 * `strapi.admin` as plugins meet it: many register admin-panel permissions in their register or
 * bootstrap (`strapi.admin.services.permission.actionProvider.registerMany(actions)`, conditions
 * likewise). This service has no admin panel, so those registrations are accepted and do nothing;
 * every other part of the admin's API still says it is not supported.
 */
import { strictObject } from './unsupported.js';

const PROVIDER_API = 'register(item), registerMany(items) (accepted: no admin panel here)';

function registrationProvider(path: string) {
  return strictObject(
    {
      register: async (..._items: unknown[]) => {},
      registerMany: async (..._items: unknown[]) => {},
    },
    path,
    PROVIDER_API,
  );
}

/** The admin's permission service as far as plugins register into it: `actionProvider`, `conditionProvider`. */
export function adminPermissionService(path = 'strapi.admin.services.permission') {
  return strictObject(
    {
      actionProvider: registrationProvider(`${path}.actionProvider`),
      conditionProvider: registrationProvider(`${path}.conditionProvider`),
    },
    path,
    'actionProvider, conditionProvider',
  );
}

export interface StrapiAdmin {
  services: { permission: ReturnType<typeof adminPermissionService> };
}

/** `strapi.admin`: its permission service's registrations only. */
export function adminPanel(): StrapiAdmin {
  return strictObject(
    { services: strictObject({ permission: adminPermissionService() }, 'strapi.admin.services', 'permission') },
    'strapi.admin',
    'services.permission (registrations for an admin panel this service does not have)',
  );
}
