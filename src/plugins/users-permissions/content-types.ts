import type { ContentTypeSource } from '../../content-types/index.js';
import { API_TOKEN_UID, HIDDEN_FROM_ADMIN, PERMISSION_UID, ROLE_UID, USER_UID } from '../../content-types/index.js';

const SOURCE = 'plugin users-permissions (built in)';

/** Strapi v4's users-permissions content-types; secrets are `private` (never selected, filtered, sorted or populated). */
export function usersPermissionsContentTypes(): ContentTypeSource[] {
  return [
    {
      uid: USER_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'up_users',
        info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
        options: { draftAndPublish: false, timestamps: true },
        attributes: {
          username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
          email: { type: 'email', minLength: 6, configurable: false, required: true },
          provider: { type: 'string', configurable: false },
          password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
          resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
          confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
          confirmed: { type: 'boolean', default: false, configurable: false },
          blocked: { type: 'boolean', default: false, configurable: false },
          role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
        },
      },
    },
    {
      uid: ROLE_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'up_roles',
        info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
        options: { draftAndPublish: false },
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          name: { type: 'string', minLength: 3, required: true, configurable: false },
          description: { type: 'string', configurable: false },
          type: { type: 'string', unique: true, configurable: false },
          permissions: {
            type: 'relation',
            relation: 'oneToMany',
            target: PERMISSION_UID,
            mappedBy: 'role',
            configurable: false,
          },
          users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
        },
      },
    },
    {
      uid: PERMISSION_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'up_permissions',
        info: { singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
        options: { draftAndPublish: false },
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          action: { type: 'string', required: true, configurable: false },
          role: {
            type: 'relation',
            relation: 'manyToOne',
            target: ROLE_UID,
            inversedBy: 'permissions',
            configurable: false,
          },
        },
      },
    },
    {
      uid: API_TOKEN_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'strapi_api_tokens',
        info: { singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token' },
        options: { draftAndPublish: false },
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          name: { type: 'string', required: true, unique: true, configurable: false },
          description: { type: 'string', configurable: false },
          type: {
            type: 'enumeration',
            enum: ['read-only', 'full-access', 'custom'],
            required: true,
            configurable: false,
          },
          accessKey: { type: 'string', required: true, private: true, unique: true, configurable: false },
          actions: { type: 'json', configurable: false },
          lastUsedAt: { type: 'datetime', configurable: false },
          expiresAt: { type: 'datetime', configurable: false },
          lifespan: { type: 'integer', configurable: false },
        },
      },
    },
  ];
}
