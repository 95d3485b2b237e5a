/**
 * `strapi.plugin('users-permissions').service('users-permissions')` of Strapi 4.26, for app code that
 * calls it (a copy of the plugin's bootstrap in an extension, a register flow changing a user's role):
 * `initialize()` seeds the Authenticated and Public roles and syncs the permissions with the routes,
 * which the service's own users-permissions start-up has done before any app code runs (a no-op
 * here); `updateUserRole(user, role)` sets a user's role through the query engine, as Strapi's.
 */
import type { QueryEngine } from './query-engine.js';

const USER_UID = 'plugin::users-permissions.user';

export interface UsersPermissionsService {
  initialize(): Promise<void>;
  updateUserRole(user: { id: unknown }, role: unknown): Promise<unknown>;
}

export function createUsersPermissionsService(query: (uid: string) => QueryEngine): UsersPermissionsService {
  return {
    async initialize() {},
    updateUserRole: (user, role) => query(USER_UID).update({ where: { id: user.id }, data: { role } }),
  };
}
