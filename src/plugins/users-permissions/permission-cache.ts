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
  expiresAt: number;
}

const grantsOf = (role: RoleDoc | null): number => role?.__grants ?? 0;

/**
 * The actions of each role, kept so a request does not cost extra database commands. A JWT
 * request hands in the role document read with its user (`actionsOfRole`): cached actions serve it
 * only while the role's `__grants` stamp is the one they were read with, so a change made by any
 * instance through the role's writes is seen on the next request. The public role (a request
 * without credentials reads nothing else) and writes that bypass those functions (an app's
 * `strapi.db.query` on the permissions) are seen here within `ttlMs`; changes made through this
 * process at once (`invalidate`).
 */
export class PermissionCache {
  private readonly byRole = new Map<number, Entry>();
  private publicRole: { id: number | null; expiresAt: number } | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly ttlMs = 2000,
  ) {}

  /** The actions of a role whose document was just read (a deleted role, null, grants none). */
  async actionsOfRole(role: RoleDoc | null): Promise<readonly string[]> {
    if (!role) return [];
    const hit = this.byRole.get(role._id);
    if (hit && hit.grants === grantsOf(role) && hit.expiresAt > Date.now()) return hit.actions;
    return (await this.load(role._id, role)).actions;
  }

  async publicActions(): Promise<readonly string[]> {
    const now = Date.now();
    if (!this.publicRole || this.publicRole.expiresAt <= now) {
      const role = await findRole(this.ctx, { type: 'public' });
      this.publicRole = { id: role?._id ?? null, expiresAt: now + this.ttlMs };
    }
    if (this.publicRole.id === null) return [];
    const hit = this.byRole.get(this.publicRole.id);
    if (hit && hit.expiresAt > now) return hit.actions;
    return (await this.load(this.publicRole.id)).actions;
  }

  invalidate(): void {
    this.byRole.clear();
    this.publicRole = undefined;
  }

  /** The stamp is read before the actions: actions newer than their stamp are read again, never older ones kept. */
  private async load(roleId: number, read?: RoleDoc): Promise<Entry> {
    const now = Date.now();
    const role = read ?? (await findRole(this.ctx, { _id: roleId }));
    const actions = await roleActions(this.ctx, roleId);
    const entry = { role, actions, grants: grantsOf(role), expiresAt: now + this.ttlMs };
    this.byRole.set(roleId, entry);
    return entry;
  }
}
