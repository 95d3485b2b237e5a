import type { ServiceContext } from '../../service-context.js';
import { findRole, roleActions, type RoleDoc } from './roles.js';

/** A role's stored document (null when it is gone) and the actions it grants. */
export interface CachedRole {
  role: RoleDoc | null;
  actions: readonly string[];
}

interface Entry extends CachedRole {
  /** the role's `__grants` stamp read before its actions */
  grants: number;
  /** the credentials epoch's stamp taken before the read (0 while it had none: never serves) */
  stamp: number;
}

const grantsOf = (role: RoleDoc | null): number => role?.__grants ?? 0;

/**
 * The actions of each role, kept so a request does not cost extra database commands. Every entry
 * serves only under the credentials epoch's stamp it was read under (`ctx.credentials`,
 * src/database/credentials-epoch.ts): a change of a role or its permissions made by any instance
 * is seen within one poll, on this one at once. A JWT request hands in the role document read
 * with its user (`actionsOfRole`), whose `__grants` stamp is compared too, so a change of its
 * permissions is seen on the very next request.
 */
export class PermissionCache {
  private readonly byRole = new Map<number, Entry>();
  private publicRole: { id: number | null; stamp: number } | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  /** The actions of a role whose document was just read (a deleted role, null, grants none). */
  async actionsOfRole(role: RoleDoc | null): Promise<readonly string[]> {
    if (!role) return [];
    const epoch = this.ctx.credentials;
    const hit = this.byRole.get(role._id);
    if (hit && hit.grants === grantsOf(role) && epoch.serves(hit.stamp)) return hit.actions;
    return (await this.load(role._id, epoch.stamp, role)).actions;
  }

  async publicActions(): Promise<readonly string[]> {
    const epoch = this.ctx.credentials;
    if (!this.publicRole || !epoch.serves(this.publicRole.stamp)) {
      const stamp = epoch.stamp ?? 0;
      const role = await findRole(this.ctx, { type: 'public' });
      this.publicRole = { id: role?._id ?? null, stamp };
    }
    if (this.publicRole.id === null) return [];
    const hit = this.byRole.get(this.publicRole.id);
    if (hit && epoch.serves(hit.stamp)) return hit.actions;
    return (await this.load(this.publicRole.id, epoch.stamp)).actions;
  }

  /** The stamps are taken before the actions are read: actions newer than their stamps are read again, never older ones kept. */
  private async load(roleId: number, stamp: number | undefined, read?: RoleDoc): Promise<Entry> {
    const role = read ?? (await findRole(this.ctx, { _id: roleId }));
    const actions = await roleActions(this.ctx, roleId);
    const entry = { role, actions, grants: grantsOf(role), stamp: stamp ?? 0 };
    this.byRole.set(roleId, entry);
    return entry;
  }
}
