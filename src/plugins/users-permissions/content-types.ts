import type { ContentTypeSource } from '../../content-types/index.js';
import {
  API_TOKEN_PERMISSION_UID,
  API_TOKEN_UID,
  HIDDEN_FROM_ADMIN,
  PERMISSION_UID,
  ROLE_UID,
  USER_UID,
} from '../../content-types/index.js';

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
    // Strapi 4.26's admin token types: a custom token's actions are api-token-permission entries
    // related to it (`permissions` / `token`), as plugins populate them
    {
      uid: API_TOKEN_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'strapi_api_tokens',
        info: { singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token', description: '' },
        options: { draftAndPublish: false },
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          name: { type: 'string', minLength: 1, required: true, unique: true, configurable: false },
          description: { type: 'string', minLength: 1, required: false, default: '', configurable: false },
          type: {
            type: 'enumeration',
            enum: ['read-only', 'full-access', 'custom'],
            required: true,
            default: 'read-only',
            configurable: false,
          },
          // only its HMAC is stored; private here (Strapi's is not): no client reads or filters on it
          accessKey: {
            type: 'string',
            minLength: 1,
            required: true,
            private: true,
            unique: true,
            searchable: false,
            configurable: false,
          },
          lastUsedAt: { type: 'datetime', required: false, configurable: false },
          permissions: {
            type: 'relation',
            relation: 'oneToMany',
            target: API_TOKEN_PERMISSION_UID,
            mappedBy: 'token',
            required: false,
            configurable: false,
          },
          expiresAt: { type: 'datetime', required: false, configurable: false },
          lifespan: { type: 'biginteger', required: false, configurable: false },
        },
      },
    },
    {
      uid: API_TOKEN_PERMISSION_UID,
      namespace: 'plugin',
      source: SOURCE,
      schema: {
        kind: 'collectionType',
        collectionName: 'strapi_api_token_permissions',
        info: {
          singularName: 'api-token-permission',
          pluralName: 'api-token-permissions',
          displayName: 'API Token Permission',
          description: '',
        },
        options: { draftAndPublish: false },
        pluginOptions: HIDDEN_FROM_ADMIN,
        attributes: {
          action: { type: 'string', minLength: 1, required: true, configurable: false },
          token: {
            type: 'relation',
            relation: 'manyToOne',
            target: API_TOKEN_UID,
            inversedBy: 'permissions',
            configurable: false,
          },
        },
      },
    },
  ];
}
