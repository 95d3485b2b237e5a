import { pluginCollectionType, type ContentTypeSource } from './normalize.js';
import { ADMIN_USER_UID } from './uids.js';

/**
 * Strapi's admin panel is not part of this service, but real schemas relate to its users
 * (`"target": "admin::user"`, e.g. an article's editor). `admin::user` exists so those schemas
 * load: Strapi v4's attributes, no routes, not in GraphQL, written only by the app's own code
 * (`strapi.service('admin::user')`, as projects seed their admin account). Its entries are
 * never readable through the content API (no role has `admin::user.find`), so such relations are
 * left out of responses and ignored in writes, as Strapi's content API does.
 */
export function adminUserType(): ContentTypeSource {
  return pluginCollectionType({
    uid: ADMIN_USER_UID,
    source: 'admin (built in, read-only)',
    collectionName: 'admin_users',
    singularName: 'user',
    pluralName: 'users',
    displayName: 'User',
    attributes: {
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      username: { type: 'string' },
      email: { type: 'email', private: true },
      password: { type: 'password', private: true },
      resetPasswordToken: { type: 'string', private: true },
      registrationToken: { type: 'string', private: true },
      isActive: { type: 'boolean', private: true },
      blocked: { type: 'boolean', private: true },
      preferedLanguage: { type: 'string' },
    },
  });
}
