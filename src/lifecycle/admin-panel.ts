/**
 * `strapi.admin` as plugins meet it: many register admin-panel permissions in their register or
 * bootstrap (`strapi.admin.services.permission.actionProvider.registerMany(actions)`, conditions
 * likewise), and projects look up the admin's routes in register to add a middleware to one
 * (`strapi.admin.routes.admin.routes.find(...)`: SSO-only sign-in). This service has no admin
 * panel, so those registrations are accepted and do nothing and the admin's route table is empty;
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

/** A router of Strapi's route tables: `{ type, routes }`. */
interface AdminRouter {
  type: 'admin';
  routes: unknown[];
}

export interface StrapiAdmin {
  services: { permission: ReturnType<typeof adminPermissionService> };
  /** Strapi's `{ admin: { type: 'admin', routes } }`, with no routes: none is served here */
  routes: { admin: AdminRouter };
}

/** `strapi.admin`: its permission service's registrations and an empty admin route table. */
export function adminPanel(): StrapiAdmin {
  return strictObject(
    {
      services: strictObject({ permission: adminPermissionService() }, 'strapi.admin.services', 'permission'),
      routes: { admin: { type: 'admin', routes: [] } },
    },
    'strapi.admin',
    'services.permission and routes (an empty admin route table: this service has no admin panel)',
  );
}
