/**
 * `strapi.plugin('users-permissions').service('user')` of Strapi v4 (also
 * `strapi.plugins['users-permissions'].services.user`), as apps call it from their controllers and
 * hooks: every method is the entity service or the query engine on `plugin::users-permissions.user`,
 * as Strapi defines them, so writes are validated, passwords hashed and lifecycle hooks run.
 */
import { verifyPassword } from '../plugins/users-permissions/passwords.js';
import type { PlainEntry } from '../query/index.js';
import type { EntityService } from './entity-service.js';
import type { QueryEngine } from './query-engine.js';

const USER = 'plugin::users-permissions.user';

type Params = Record<string, unknown>;

export interface UsersService {
  add(values: Record<string, unknown>): Promise<PlainEntry | null>;
  edit(userId: number | string, params?: Record<string, unknown>): Promise<PlainEntry | null>;
  fetch(id: number | string, params?: Params): Promise<PlainEntry | null>;
  fetchAll(params?: Params): Promise<PlainEntry[] | PlainEntry | null>;
  fetchAuthenticatedUser(id: number | string): Promise<PlainEntry | null>;
  count(params?: Params): Promise<number>;
  remove(params: Params): Promise<PlainEntry | null>;
  validatePassword(password: string, hash: string): Promise<boolean>;
  /** a new confirmation token, and the advanced settings' confirmation template mailed through the e-mail plugin */
  sendConfirmationEmail(user: { id?: unknown; email?: unknown }): Promise<void>;
}

export function createUsersService(
  entities: EntityService,
  query: (uid: string) => QueryEngine,
  sendConfirmationEmail: UsersService['sendConfirmationEmail'],
): UsersService {
  return {
    add: (values) => entities.create(USER, { data: values, populate: ['role'] }),
    edit: (userId, params = {}) => entities.update(USER, userId, { data: params, populate: ['role'] }),
    fetch: (id, params) => entities.findOne(USER, id, params),
    fetchAll: (params) => entities.findMany(USER, params),
    fetchAuthenticatedUser: (id) => query(USER).findOne({ where: { id }, populate: ['role'] }),
    count: (params) => query(USER).count({ where: params }),
    remove: (params) => query(USER).delete({ where: params }),
    validatePassword: (password, hash) => verifyPassword(password, hash),
    sendConfirmationEmail,
  };
}
