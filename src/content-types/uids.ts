/** uids of the content-types the built-in plugins own. */
export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const PERMISSION_UID = 'plugin::users-permissions.permission';
export const API_TOKEN_UID = 'admin::api-token';
export const API_TOKEN_PERMISSION_UID = 'admin::api-token-permission';
export const ADMIN_USER_UID = 'admin::user';
export const I18N_LOCALE_UID = 'plugin::i18n.locale';
