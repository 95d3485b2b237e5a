/**
 * A user as Strapi's user controller answers a create or an update: its public fields and its
 * role (`{ id, name, description, type, createdAt, updatedAt }`), the role only for a caller who
 * may read roles (Strapi's sanitizer removes it otherwise).
 */
import { ROLE_UID } from '../../content-types/index.js';
import type { OperationContext } from '../../operations/index.js';
import { findRole, formatRole } from './roles.js';
import { sanitizeUser, type UserDoc } from './users.js';

export async function userWithRole(
  ctx: OperationContext,
  user: UserDoc,
): Promise<{ id: number } & Record<string, unknown>> {
  const answer = sanitizeUser(ctx, user);
  const role = typeof user.role === 'number' ? await findRole(ctx, { _id: user.role }) : null;
  if (role && ctx.access.canRead(ROLE_UID)) answer.role = formatRole(role);
  return answer;
}
