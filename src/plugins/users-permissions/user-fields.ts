import { isPrivate, USER_UID } from '../../content-types/index.js';
import type { ServiceContext } from '../../service-context.js';
import type { Body } from './validation.js';

/** Never settable by a client through register or update (CVE-2023-39345: mass assignment). */
const PROTECTED = new Set([
  'role',
  'confirmed',
  'blocked',
  'provider',
  'resetPasswordToken',
  'confirmationToken',
  'password',
  'username',
  'email',
  'createdAt',
  'updatedAt',
  'id',
  '_id',
]);

/** System attributes the registry adds (never written by a client). */
const SYSTEM = new Set(['publishedAt', 'locale', 'localizations']);

/** An attribute of the user a client may set besides username, email and password: the app's own, never a private or protected one. */
function clientWritable(ctx: ServiceContext, name: string): boolean {
  const attribute = ctx.registry.contentType(USER_UID)?.attributes[name];
  return attribute !== undefined && !PROTECTED.has(name) && !isPrivate(attribute) && !SYSTEM.has(name);
}

/**
 * The configured `register.allowedFields` a body carries (any kind of attribute: scalars,
 * relations, media, components; validated by the write path), never a private or protected one.
 */
export function allowedExtraFields(
  ctx: ServiceContext,
  allowed: readonly string[],
  body: Body,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of allowed) {
    if (clientWritable(ctx, name) && body[name] !== undefined) out[name] = body[name];
  }
  return out;
}

/** What `PUT /api/users/:id` writes besides username, email and password: every other attribute it may set. */
export function updatableExtraFields(ctx: ServiceContext, body: Body): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([name, value]) => value !== undefined && clientWritable(ctx, name)),
  );
}
