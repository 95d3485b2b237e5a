/** uids of the content-types the built-in plugins own. */
export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const PERMISSION_UID = 'plugin::users-permissions.permission';
export const API_TOKEN_UID = 'admin::api-token';
