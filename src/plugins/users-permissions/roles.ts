import { DEFAULT_ROLE_PERMISSIONS } from '../../access/actions.js';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '../../content-types/index.js';
import { ApplicationError, NotFoundError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { withLease } from '../../write/index.js';
import { collectionOf } from './collections.js';
import { isDuplicate } from './indexes.js';

export interface RoleDoc {
  _id: number;
  name: string;
  description?: string | null;
  type: string;
  createdAt?: Date;
  updatedAt?: Date;
  /** moved after every change of the role's permissions: see `markGrantsChanged` */
  __grants?: number;
}

/** A role as Strapi answers it (without its permissions and users). */
export function formatRole(role: RoleDoc): Record<string, unknown> {
  return {
    id: role._id,
    name: role.name,
    description: role.description ?? null,
    type: role.type,
    createdAt: role.createdAt?.toISOString() ?? null,
    updatedAt: role.updatedAt?.toISOString() ?? null,
  };
}

/** In Strapi's order of creation: `authenticated` is role 1, `public` role 2. */
export const BUILT_IN_ROLES = [
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
] as const;

export async function nextId(ctx: ServiceContext, uid: string): Promise<number> {
  const ct = ctx.registry.contentType(uid);
  if (!ct) throw new Error(`unknown content-type ${uid}`);
  return ctx.models.counters.next(ct.collectionName);
}

export async function findRole(
  ctx: ServiceContext,
  query: { _id: number } | { type: string },
): Promise<RoleDoc | null> {
  return (await ctx.models.model(ROLE_UID).findOne(query).lean()) as RoleDoc | null;
}

/** The role a client names by id (a route parameter, a GraphQL `ID`): 404 `Role not found` otherwise. */
export async function requireRole(ctx: ServiceContext, raw: unknown): Promise<RoleDoc> {
  const id = typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  const role = Number.isSafeInteger(id) ? await findRole(ctx, { _id: id }) : null;
  if (!role) throw new NotFoundError('Role not found');
  return role;
}

export async function listRoles(ctx: ServiceContext): Promise<RoleDoc[]> {
  return (await ctx.models.model(ROLE_UID).find({}).sort({ _id: 1 }).lean()) as unknown as RoleDoc[];
}

export async function createRole(
  ctx: ServiceContext,
  input: { name: string; description?: string | null; type: string },
): Promise<RoleDoc> {
  const _id = await nextId(ctx, ROLE_UID);
  const doc = await ctx.models.model(ROLE_UID).create({ _id, ...input });
  return doc.toObject() as unknown as RoleDoc;
}

export async function updateRole(
  ctx: ServiceContext,
  roleId: number,
  set: { name?: string; description?: string | null },
): Promise<void> {
  await ctx.models.model(ROLE_UID).updateOne({ _id: roleId }, { $set: set });
}

/**
 * Changes a role's name or description and, when given, replaces its actions: under the role's
 * lease, so a replacement that cannot start (409) leaves the name as it was too.
 */
export async function changeRole(
  ctx: ServiceContext,
  roleId: number,
  set: { name?: string; description?: string | null },
  actions: readonly string[] | undefined,
): Promise<void> {
  const rename = () => (Object.keys(set).length > 0 ? updateRole(ctx, roleId, set) : Promise.resolve());
  if (actions === undefined) return rename();
  await withRoleLease(ctx, roleId, async () => {
    await rename();
    await setRoleActions(ctx, roleId, actions);
  });
}

/** The actions a role grants. */
export async function roleActions(ctx: ServiceContext, roleId: number): Promise<string[]> {
  const docs = await collectionOf<{ _id: number; action: string }>(ctx, PERMISSION_UID)
    .find({ role: roleId }, { projection: { action: 1 } })
    .toArray();
  return docs.map((d) => String(d.action));
}

/**
 * Moves the role's `__grants` stamp, after its permission documents changed: every instance reads
 * the stamp with the user of each JWT request (`findUserWithRole`) and reads the role's actions
 * again when it differs from the one its cache holds, so a change is seen at once everywhere; and
 * the credentials epoch, for the public role's and API tokens' caches. The one place a change of a
 * role's permissions is told, once per change: its callers tell nothing more.
 */
async function markGrantsChanged(ctx: ServiceContext, roleId: number): Promise<void> {
  await collectionOf(ctx, ROLE_UID).updateOne({ _id: roleId }, { $inc: { __grants: 1 } });
  await ctx.credentials.changed();
}

/** Adds the actions a role does not have yet; answers whether it added any. */
async function addMissingActions(ctx: ServiceContext, roleId: number, actions: readonly string[]): Promise<boolean> {
  const existing = new Set(await roleActions(ctx, roleId));
  const missing = [...new Set(actions)].filter((a) => !existing.has(a));
  for (const action of missing) {
    const _id = await nextId(ctx, PERMISSION_UID);
    // granted by another request (or instance) meanwhile: the unique (role, action) index keeps one
    await ctx.models
      .model(PERMISSION_UID)
      .create({ _id, action, role: roleId })
      .catch((error: unknown) => {
        if (!isDuplicate(error, 'action')) throw error;
      });
  }
  return missing.length > 0;
}

/** Adds the actions a role does not have yet (start-up seeding is additive). */
export async function grantActions(ctx: ServiceContext, roleId: number, actions: readonly string[]): Promise<void> {
  if (await addMissingActions(ctx, roleId, actions)) await markGrantsChanged(ctx, roleId);
}

/** Makes a role grant exactly these actions (parallel calls: the set of one of them, never a mix). */
export async function setRoleActions(ctx: ServiceContext, roleId: number, actions: readonly string[]): Promise<void> {
  const wanted = new Set(actions);
  await withRoleLease(ctx, roleId, async () => {
    const dropped = await collectionOf(ctx, PERMISSION_UID).deleteMany({ role: roleId, action: { $nin: [...wanted] } });
    const added = await addMissingActions(ctx, roleId, [...wanted]);
    if (added || dropped.deletedCount > 0) await markGrantsChanged(ctx, roleId);
  });
}

/**
 * Deletes a role; its users move to the public role, as Strapi 4.26's role controller moves them
 * (its service's `deleteRole(roleID, publicRoleID)`: to the role of `fallbackId` when a caller
 * names one). A user left with fewer rights is safe; one raised to `authenticated` would not be.
 * The public and authenticated roles themselves cannot be deleted.
 */
export async function deleteRoleOfUsers(ctx: ServiceContext, role: RoleDoc, fallbackId?: number): Promise<void> {
  if (role.type === 'public') throw new ApplicationError('Cannot delete public role');
  if (role.type === 'authenticated') throw new ApplicationError('Cannot delete the authenticated role');
  const fallback = await findRole(ctx, fallbackId === undefined ? { type: 'public' } : { _id: fallbackId });
  if (!fallback || fallback._id === role._id) throw new ApplicationError('Impossible to find the role users move to');
  await deleteRole(ctx, role._id, fallback._id);
}

/**
 * The role goes first (under its lease, so no permission write is half done), then its users move
 * to the fallback role: a user written with the role meanwhile fails the write path's check of
 * the ids it links, or is moved by this sweep; then its permissions go, and the caches are told once.
 */
async function deleteRole(ctx: ServiceContext, roleId: number, fallbackRoleId: number): Promise<void> {
  await withRoleLease(ctx, roleId, () => collectionOf(ctx, ROLE_UID).deleteOne({ _id: roleId }));
  await collectionOf(ctx, USER_UID).updateMany({ role: roleId }, { $set: { role: fallbackRoleId } });
  await collectionOf(ctx, PERMISSION_UID).deleteMany({ role: roleId });
  await ctx.credentials.changed();
}

export async function countUsersByRole(ctx: ServiceContext): Promise<Map<number, number>> {
  const rows = await collectionOf(ctx, USER_UID)
    .aggregate<{ _id: number; n: number }>([{ $group: { _id: '$role', n: { $sum: 1 } } }])
    .toArray();
  return new Map(rows.map((r) => [r._id, r.n]));
}

/**
 * Start-up: the roles `public` and `authenticated` exist (created with Strapi's default plugin
 * permissions the first time), and the app's `config/permissions` is granted additively.
 */
export async function seedRoles(ctx: ServiceContext): Promise<void> {
  for (const role of BUILT_IN_ROLES) {
    let doc = await findRole(ctx, { type: role.type });
    if (!doc) {
      doc = await createRole(ctx, role).catch(async (err: { code?: number }) => {
        // another instance created it at the same time (unique `type`)
        const again = err.code === 11000 ? await findRole(ctx, { type: role.type }) : null;
        if (!again) throw err;
        return again;
      });
      await grantActions(ctx, doc._id, DEFAULT_ROLE_PERMISSIONS[role.type]);
    }
  }
  for (const [type, actions] of Object.entries(ctx.config.permissions)) {
    const doc = await findRole(ctx, { type });
    if (!doc) {
      ctx.logger.warn({ role: type }, `config/permissions: no role of type "${type}", permissions not applied`);
      continue;
    }
    await grantActions(ctx, doc._id, actions);
  }
}

/**
 * One writer at a time on a role's permissions (several documents, Strapi's `up_permissions`), in
 * every instance: two replacements interleaved would leave the union of both sets.
 */
function withRoleLease<T>(ctx: ServiceContext, roleId: number, work: () => Promise<T>): Promise<T> {
  return withLease(ctx.models, ROLE_UID, roleId, () => new NotFoundError('Role not found'), work);
}
