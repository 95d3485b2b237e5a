/**
 * `GET /api/users-permissions/permissions`: every content-API action this service serves, as
 * Strapi's permission tree with nothing enabled (the template a role's permissions fill in).
 */
import {
  AUTH_ACTIONS,
  LIST_LOCALES_ACTION,
  PERMISSIONS_ACTION,
  ROLE_ACTIONS,
  USER_ACTIONS,
} from '../../access/actions.js';
import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import type { ServiceContext } from '../../service-context.js';
import { CONTENT_TYPE_BUILDER_ACTIONS } from '../content-type-builder/index.js';
import { EMAIL_SEND_ACTION, emailServiceOf } from '../email/index.js';
import { UPLOAD_ACTIONS } from '../upload/index.js';
import { splitThree, type PermissionTree } from './permissions-format.js';

const apiName = (uid: string): string => uid.split('.')[0] ?? uid;

/** The content-API actions, in the order Strapi lists them. */
function servedActions(ctx: ServiceContext): string[] {
  const api = ctx.registry
    .listContentTypes()
    .filter((contentType) => contentType.namespace === 'api')
    // by api name (`api::author` before `api::author-profile`), as Strapi reads its api folders
    .sort((a, b) => apiName(a.uid).localeCompare(apiName(b.uid)))
    .flatMap((contentType) => {
      const names =
        contentType.kind === 'singleType'
          ? ['find', 'update', 'delete']
          : ['find', 'findOne', 'create', 'update', 'delete'];
      if (contentType.localized) names.push('createLocalization');
      return names.map((name) => `${contentType.uid}.${name}`);
    });
  // the app's own controller actions, each after its api's core ones (a stable sort by api name)
  const withApp = [...api, ...(ctx.appControllerActions?.() ?? [])].sort((a, b) =>
    apiName(a).localeCompare(apiName(b)),
  );
  const builder = CONTENT_TYPE_BUILDER_ACTIONS;
  return [
    ...withApp,
    ...(ctx.config.plugins['content-type-builder']?.enabled !== false
      ? [builder.getComponents, builder.getComponent, builder.getContentTypes, builder.getContentType]
      : []),
    ...(ctx.registry.contentType(UPLOAD_FILE_UID)
      ? [UPLOAD_ACTIONS.find, UPLOAD_ACTIONS.findOne, UPLOAD_ACTIONS.destroy, UPLOAD_ACTIONS.upload]
      : []),
    ...(emailServiceOf(ctx) ? [EMAIL_SEND_ACTION] : []),
    ...Object.values(AUTH_ACTIONS),
    ...Object.values(USER_ACTIONS),
    ...Object.values(ROLE_ACTIONS),
    PERMISSIONS_ACTION,
    ...(ctx.i18n ? [LIST_LOCALES_ACTION] : []),
  ];
}

export function permissionCatalogue(ctx: ServiceContext): PermissionTree {
  return rolePermissionTree(ctx, []);
}

/**
 * A role's permissions as `GET /users-permissions/roles/:id` answers them: the whole catalogue,
 * each action `enabled` when the role has it (and the role's other actions, enabled).
 */
export function rolePermissionTree(ctx: ServiceContext, enabled: readonly string[]): PermissionTree {
  const granted = new Set(enabled);
  const tree: PermissionTree = {};
  for (const action of [...servedActions(ctx), ...enabled]) {
    const [type, controller, name] = splitThree(action);
    if (!type || !controller || !name) continue;
    const controllers = (tree[type] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: granted.has(action), policy: '' };
  }
  return tree;
}
