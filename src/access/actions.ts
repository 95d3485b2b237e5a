/**
 * Actions of the users-permissions plugin's own routes (Strapi v4 names) and the defaults the two
 * built-in roles get when they are first created.
 */
export const UP = 'plugin::users-permissions';

export const AUTH_ACTIONS = {
  callback: `${UP}.auth.callback`,
  connect: `${UP}.auth.connect`,
  register: `${UP}.auth.register`,
  forgotPassword: `${UP}.auth.forgotPassword`,
  resetPassword: `${UP}.auth.resetPassword`,
  changePassword: `${UP}.auth.changePassword`,
  emailConfirmation: `${UP}.auth.emailConfirmation`,
  sendEmailConfirmation: `${UP}.auth.sendEmailConfirmation`,
} as const;

export const USER_ACTIONS = {
  me: `${UP}.user.me`,
  find: `${UP}.user.find`,
  findOne: `${UP}.user.findOne`,
  count: `${UP}.user.count`,
  create: `${UP}.user.create`,
  update: `${UP}.user.update`,
  destroy: `${UP}.user.destroy`,
} as const;

/** The i18n plugin's one content-API action: listing the locales (REST and GraphQL). */
export const LIST_LOCALES_ACTION = 'plugin::i18n.locales.listLocales';

export const ROLE_ACTIONS = {
  find: `${UP}.role.find`,
  findOne: `${UP}.role.findOne`,
  createRole: `${UP}.role.createRole`,
  updateRole: `${UP}.role.updateRole`,
  deleteRole: `${UP}.role.deleteRole`,
} as const;

/** Reading the template of a role's permissions (`GET /users-permissions/permissions`). */
export const PERMISSIONS_ACTION = `${UP}.permissions.getPermissions`;

export const DEFAULT_ROLE_PERMISSIONS: Record<'public' | 'authenticated', string[]> = {
  public: [
    AUTH_ACTIONS.callback,
    AUTH_ACTIONS.connect,
    AUTH_ACTIONS.register,
    AUTH_ACTIONS.forgotPassword,
    AUTH_ACTIONS.resetPassword,
    AUTH_ACTIONS.emailConfirmation,
    AUTH_ACTIONS.sendEmailConfirmation,
  ],
  authenticated: [USER_ACTIONS.me, AUTH_ACTIONS.changePassword],
};
