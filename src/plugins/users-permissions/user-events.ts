/**
 * The events of the plugin's writes of users, as Strapi's user service makes them through its
 * entity service (`add`, `edit`, `remove`): `entry.create` / `entry.update` / `entry.delete` of
 * `plugin::users-permissions.user`, the user without its private fields, with its role; also
 * `entry.update` of the plugin's own updates in its auth flows (confirmation and reset tokens,
 * password changes), which Strapi's user service makes through `edit`.
 */
import { USER_UID } from '../../content-types/index.js';
import type { EntryEventName, ServiceContext } from '../../service-context.js';
import { findRole, formatRole } from './roles.js';
import { sanitizeUser, type UserDoc } from './users.js';

export async function emitUserEvent(ctx: ServiceContext, event: EntryEventName, user: UserDoc): Promise<void> {
  const hub = ctx.events;
  if (!hub?.hears(event)) return;
  const entry: Record<string, unknown> = sanitizeUser(ctx, user);
  try {
    const role = typeof user.role === 'number' ? await findRole(ctx, { _id: user.role }) : null;
    entry.role = role ? formatRole(role) : null;
  } catch (err) {
    // the event goes without its role rather than failing the write that is done
    ctx.logger.error({ err }, `${event} of user ${user._id}: its role could not be read: ${String(err)}`);
  }
  hub.entry(event, USER_UID, entry);
}
