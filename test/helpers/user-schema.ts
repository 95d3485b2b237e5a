/**
 * A project's `src/extensions/users-permissions/content-types/user/schema.json`: the user as
 * Strapi 4.26's content-type builder writes it, with `extra` attributes after its own.
 */
export function extendedUserSchema(extra: Record<string, unknown>): Record<string, unknown> & {
  attributes: Record<string, unknown>;
} {
  return {
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
      email: { type: 'email', minLength: 6, configurable: false, required: true },
      provider: { type: 'string', configurable: false },
      password: { type: 'password', minLength: 6, configurable: false, private: true },
      resetPasswordToken: { type: 'string', configurable: false, private: true },
      confirmationToken: { type: 'string', configurable: false, private: true },
      confirmed: { type: 'boolean', default: false, configurable: false },
      blocked: { type: 'boolean', default: false, configurable: false },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      ...extra,
    },
  };
}
