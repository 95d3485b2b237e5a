/**
 * `strapi.plugin('users-permissions').service('role')` of Strapi 4.26, as projects and plugins call
 * it from their bootstrap (granting the public role their routes: `find()`, `findOne(id)`, a change
 * of its `permissions` tree, `updateRole(id, role)`). Each method does what the role routes of
 * `/api/users-permissions/roles` do, with their checks (docs/strapi-deviations.md, "Roles that
 * registration and the public need stay"), and the permission cache is dropped after every change.
 */
import { NotFoundError } from '../../errors/index.js';
import { rolePermissionTree } from './permission-catalogue.js';
import { fromPermissionInput, type PermissionTree } from './permissions-format.js';
import { countUsersByRole, deleteRoleOfUsers, findRole, formatRole, listRoles, roleActions } from './roles.js';
import { changeCheckedRole, createCheckedRole } from './routes/roles.js';
import type { UsersPermissionsRuntime } from './runtime.js';
import { bodyObject } from './validation.js';

type RoleId = number | string;

export interface RoleService {
  find(): Promise<Record<string, unknown>[]>;
  findOne(roleId: RoleId): Promise<Record<string, unknown> & { permissions: PermissionTree }>;
  createRole(params: unknown): Promise<void>;
  updateRole(roleId: RoleId, data: unknown): Promise<void>;
  deleteRole(roleId: RoleId, publicRoleId?: RoleId): Promise<void>;
}

async function existingRole(rt: UsersPermissionsRuntime, roleId: RoleId) {
  const id = Number(roleId);
  const role = Number.isSafeInteger(id) ? await findRole(rt.ctx, { _id: id }) : null;
  if (!role) throw new NotFoundError('Role not found');
  return role;
}

/** `runtime()`: the plugin's runtime once the service runs (the service is made before it). */
export function createRoleService(runtime: () => UsersPermissionsRuntime): RoleService {
  return {
    async find() {
      const { ctx } = runtime();
      const [roles, counts] = await Promise.all([listRoles(ctx), countUsersByRole(ctx)]);
      return roles.map((role) => ({ ...formatRole(role), nb_users: counts.get(role._id) ?? 0 }));
    },
    async findOne(roleId) {
      const rt = runtime();
      const role = await existingRole(rt, roleId);
      return { ...formatRole(role), permissions: rolePermissionTree(rt.ctx, await roleActions(rt.ctx, role._id)) };
    },
    async createRole(params) {
      const rt = runtime();
      const body = bodyObject(params);
      await createCheckedRole(
        rt.ctx,
        body,
        body.permissions !== undefined ? fromPermissionInput(body.permissions) : [],
      );
    },
    async updateRole(roleId, data) {
      const rt = runtime();
      await changeCheckedRole(rt.ctx, (await existingRole(rt, roleId))._id, data);
    },
    async deleteRole(roleId, publicRoleId) {
      const rt = runtime();
      const role = await existingRole(rt, roleId);
      const fallback = publicRoleId === undefined ? undefined : (await existingRole(rt, publicRoleId))._id;
      await deleteRoleOfUsers(rt.ctx, role, fallback);
    },
  };
}
