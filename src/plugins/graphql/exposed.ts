/** Which content-types GraphQL exposes, and how (Strapi v4: api types + the plugins' content-API types). */
import type { ContentType, Registry } from '../../content-types/index.js';

export const PERMISSION_UID = 'plugin::users-permissions.permission';
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const UPLOAD_FILE_UID = 'plugin::upload.file';

/** The plugins' content-API types, in Strapi's order. */
const PLUGIN_TYPES = [UPLOAD_FILE_UID, 'plugin::upload.folder', PERMISSION_UID, ROLE_UID, USER_UID];

/** Plugin types with GraphQL types of their own elsewhere (builtin-types.ts) or none (admin::). */
const NOT_SHADOWED = new Set(['plugin::i18n.locale', ...PLUGIN_TYPES]);

/**
 * Content-types with GraphQL types: the built-in plugins' (Strapi's order), the app's local
 * plugins' (Strapi v4 shadows every content-type but the admin's), then the api ones by singular
 * name (Strapi loads them sorted).
 */
export function exposedContentTypes(registry: Registry): ContentType[] {
  const local = registry
    .listContentTypes()
    .filter((ct) => ct.namespace === 'plugin' && ct.uid.startsWith('plugin::') && !NOT_SHADOWED.has(ct.uid));
  const plugins = [...PLUGIN_TYPES.flatMap((uid) => registry.contentType(uid) ?? []), ...local];
  const api = registry.listContentTypes().filter((ct) => ct.namespace === 'api');
  api.sort((a, b) => (a.singularName < b.singularName ? -1 : a.singularName > b.singularName ? 1 : 0));
  return [...plugins, ...api];
}

/** Types without shadow-CRUD queries and mutations (Strapi v4 hides permissions). */
export function hasShadowCrud(ct: ContentType): boolean {
  return ct.uid !== PERMISSION_UID;
}
