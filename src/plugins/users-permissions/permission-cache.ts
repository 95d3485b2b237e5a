import type { ServiceContext } from '../../service-context.js';
import { findRole, roleActions } from './roles.js';

interface Entry {
  actions: readonly string[];
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

  async actionsOf(roleId: number): Promise<readonly string[]> {
    const now = Date.now();
    const hit = this.byRole.get(roleId);
    if (hit && hit.expiresAt > now) return hit.actions;
    const actions = await roleActions(this.ctx, roleId);
    this.byRole.set(roleId, { actions, expiresAt: now + this.ttlMs });
    return actions;
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
