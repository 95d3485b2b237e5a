import deburr from 'lodash/deburr.js';
import snakeCase from 'lodash/snakeCase.js';
import toLower from 'lodash/toLower.js';
import { PERMISSIONS_ACTION, ROLE_ACTIONS } from '../../../access/actions.js';
import { ApplicationError, ValidationError } from '../../../errors/index.js';
import { permissionCatalogue, rolePermissionTree } from '../permission-catalogue.js';
import { fromPermissionInput } from '../permissions-format.js';
import {
  countUsersByRole,
  createRole,
  deleteRoleOfUsers,
  findRole,
  formatRole,
  listRoles,
  requireRole,
  roleActions,
  setRoleActions,
  changeRole,
} from '../roles.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';
import { bodyObject, checkFields } from '../validation.js';
import { isDuplicate } from '../indexes.js';
import { isPlainObject } from '../../../write/index.js';
import type { PluginRoute } from '../../types.js';
import type { ServiceContext } from '../../../service-context.js';

/** Strapi's role controller refuses an empty body (`{}`, `[]`) before its schema reads it. */
function roleBody(body: unknown): Record<string, unknown> {
  const empty = Array.isArray(body) ? body.length === 0 : isPlainObject(body) && Object.keys(body).length === 0;
  if (empty) throw new ValidationError('Request body cannot be empty');
  return bodyObject(body);
}

/** Strapi's role service names a role's type after its name: lodash `snakeCase(deburr(toLower(name)))` (`sw27 editors` → `sw_27_editors`). */
const typeOfName = (name: string) => snakeCase(deburr(toLower(name)));

/**
 * A new role from a create body (REST's, GraphQL's `data`), with its actions: an empty body,
 * a name shorter than the role type's minLength 3, and a second role of one `type` (`This role
 * already exists`: the role of a type is looked up by it) are refused, where Strapi 4.26 stores them.
 */
export async function createCheckedRole(
  ctx: ServiceContext,
  input: unknown,
  actions: readonly string[],
): Promise<void> {
  const body = roleBody(input);
  const { name = '', description } = checkFields(body, {
    name: [{ kind: 'required' }, { kind: 'min', n: 3 }],
    description: [],
  });
  // a type the body gives is stored as given, as Strapi's; a blank one is derived from the name (Strapi stores it blank)
  const type = typeof body.type === 'string' && body.type.trim() !== '' ? body.type : typeOfName(name);
  if (!type) throw ValidationError.forPath(['name'], 'name must contain letters or digits');
  if (await findRole(ctx, { type })) throw new ApplicationError('This role already exists');
  const role = await createRole(ctx, { name, description: description ?? null, type }).catch((error: unknown) => {
    // created by another request meanwhile (unique `type`)
    throw isDuplicate(error, 'type') ? new ApplicationError('This role already exists') : error;
  });
  await setRoleActions(ctx, role._id, actions);
}

/**
 * A role's name, description and, when given, permissions from an update body (REST's, the role
 * service's): all of it read and checked before anything is written, so a refused tree leaves the
 * name as it was.
 */
export async function changeCheckedRole(ctx: ServiceContext, roleId: number, input: unknown): Promise<void> {
  const body = bodyObject(input);
  // a name sent is checked as a new role's (Strapi 4.26 stores `null`, `''` or `ab`); a description may be emptied
  const { name, description } = checkFields(body, {
    ...('name' in body ? { name: [{ kind: 'required' }, { kind: 'min', n: 3 }] } : {}),
    description: [],
  });
  const set: { name?: string; description?: string | null } = {};
  if (name !== undefined) set.name = name;
  if (description !== undefined) set.description = description;
  else if (body.description === null || body.description === '') set.description = body.description;
  const actions = body.permissions !== undefined ? fromPermissionInput(body.permissions) : undefined;
  await changeRole(ctx, roleId, set, actions);
}

/** `/users-permissions/roles[/:id]`, answering as Strapi v4 (`{ roles }`, `{ role }`, `{ ok: true }`). */
export function roleRoutes(rt: UsersPermissionsRuntime): PluginRoute[] {
  const { ctx } = rt;
  const routes: PluginRoute[] = [];
  // below `/users-permissions`, Strapi's prefix for a plugin's routes
  const route = (method: PluginRoute['method'], path: string, handler: string, run: PluginRoute['run']) =>
    routes.push({ method, path, handler, run });

  route('GET', '/permissions', 'permissions.getPermissions', (req, res) => {
    authorize(req, PERMISSIONS_ACTION);
    res.json({ permissions: permissionCatalogue(ctx) });
  });

  route('GET', '/roles', 'role.find', async (req, res) => {
    authorize(req, ROLE_ACTIONS.find);
    const [roles, counts] = await Promise.all([listRoles(ctx), countUsersByRole(ctx)]);
    res.json({ roles: roles.map((r) => ({ ...formatRole(r), nb_users: counts.get(r._id) ?? 0 })) });
  });

  route('GET', '/roles/:id', 'role.findOne', async (req, res) => {
    authorize(req, ROLE_ACTIONS.findOne);
    const role = await requireRole(ctx, req.params.id);
    res.json({ role: { ...formatRole(role), permissions: rolePermissionTree(ctx, await roleActions(ctx, role._id)) } });
  });

  route('POST', '/roles', 'role.createRole', async (req, res) => {
    authorize(req, ROLE_ACTIONS.createRole);
    const body = roleBody(req.body);
    const actions = body.permissions !== undefined ? fromPermissionInput(body.permissions) : [];
    await createCheckedRole(ctx, body, actions);
    res.json({ ok: true });
  });

  route('PUT', '/roles/:role', 'role.updateRole', async (req, res) => {
    authorize(req, ROLE_ACTIONS.updateRole);
    const role = await requireRole(ctx, req.params.role);
    await changeCheckedRole(ctx, role._id, roleBody(req.body));
    res.json({ ok: true });
  });

  route('DELETE', '/roles/:role', 'role.deleteRole', async (req, res) => {
    authorize(req, ROLE_ACTIONS.deleteRole);
    const role = await requireRole(ctx, req.params.role);
    await deleteRoleOfUsers(ctx, role);
    res.json({ ok: true });
  });
  return routes;
}
