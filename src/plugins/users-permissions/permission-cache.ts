import type { ServiceContext } from '../../service-context.js';
import { findRole, roleActions, type RoleDoc } from './roles.js';

/** A role's stored document (null when it is gone) and the actions it grants. */
export interface CachedRole {
  role: RoleDoc | null;
  actions: readonly string[];
}

interface Entry extends CachedRole {
  expiresAt: number;
}

/**
 * The actions of each role, kept for a short time so a request does not cost two extra database
 * commands. Changes made through this process are seen at once (`invalidate`); changes made by
 * another instance within `ttlMs`.
 */
export class PermissionCache {
  private readonly byRole = new Map<number, Entry>();
  private publicRole: { id: number | null; expiresAt: number } | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly ttlMs = 2000,
  ) {}

  async roleOf(roleId: number): Promise<CachedRole> {
    const now = Date.now();
    const hit = this.byRole.get(roleId);
    if (hit && hit.expiresAt > now) return hit;
    const [role, actions] = await Promise.all([findRole(this.ctx, { _id: roleId }), roleActions(this.ctx, roleId)]);
    const entry = { role, actions, expiresAt: now + this.ttlMs };
    this.byRole.set(roleId, entry);
    return entry;
  }

  async actionsOf(roleId: number): Promise<readonly string[]> {
    return (await this.roleOf(roleId)).actions;
  }

  async publicActions(): Promise<readonly string[]> {
    const now = Date.now();
    if (!this.publicRole || this.publicRole.expiresAt <= now) {
      const role = await findRole(this.ctx, { type: 'public' });
      this.publicRole = { id: role?._id ?? null, expiresAt: now + this.ttlMs };
    }
    return this.publicRole.id === null ? [] : this.actionsOf(this.publicRole.id);
  }

  invalidate(): void {
    this.byRole.clear();
    this.publicRole = undefined;
  }
}
