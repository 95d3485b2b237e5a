import { isPrivate, isScalar, USER_UID } from '../../content-types/index.js';
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

/** The configured `register.allowedFields` a body carries: scalar, non-private, not protected. */
export function allowedExtraFields(
  ctx: ServiceContext,
  allowed: readonly string[],
  body: Body,
): Record<string, unknown> {
  const ct = ctx.registry.contentType(USER_UID);
  const out: Record<string, unknown> = {};
  for (const name of allowed) {
    const attribute = ct?.attributes[name];
    if (!attribute || PROTECTED.has(name) || isPrivate(attribute) || !isScalar(attribute)) continue;
    if (body[name] !== undefined) out[name] = body[name];
  }
  return out;
}
