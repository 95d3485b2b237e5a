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
    // Strapi's declarations, but for `roles` (the admin roles are not part of this service)
    attributes: {
      firstname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
      lastname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
      username: { type: 'string', unique: false, configurable: false, required: false },
      email: { type: 'email', minLength: 6, configurable: false, required: true, unique: true, private: true },
      password: {
        type: 'password',
        minLength: 6,
        configurable: false,
        required: false,
        private: true,
        searchable: false,
      },
      resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
      registrationToken: { type: 'string', configurable: false, private: true, searchable: false },
      isActive: { type: 'boolean', default: false, configurable: false, private: true },
      blocked: { type: 'boolean', default: false, configurable: false, private: true },
      preferedLanguage: { type: 'string', configurable: false, required: false, searchable: false },
    },
    hidden: true,
  });
}
