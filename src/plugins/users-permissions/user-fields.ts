import { isManagedField, isPrivate, USER_UID } from '../../content-types/index.js';
import type { ServiceContext } from '../../service-context.js';
import { ValidationError, type ValidationIssue } from '../../errors/index.js';
import { isPlainObject, issue, messages } from '../../write/index.js';
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

/** An attribute of the user a client may set besides username, email and password: the app's own, never a private or protected one. */
function clientWritable(ctx: ServiceContext, name: string): boolean {
  const contentType = ctx.registry.contentType(USER_UID);
  const attribute = contentType?.attributes[name];
  if (!contentType || !attribute) return false;
  return !PROTECTED.has(name) && !isPrivate(attribute) && !isManagedField(contentType, name);
}

/**
 * The `register.allowedFields` a body carries (any kind of attribute: scalars, relations, media,
 * components; validated by the write path), never a private or protected one. Without the setting,
 * Strapi 4.26's default: every attribute a client may write that is not `writable: false`.
 */
export function allowedExtraFields(
  ctx: ServiceContext,
  allowed: readonly string[] | undefined,
  body: Body,
): Record<string, unknown> {
  const names =
    allowed ??
    Object.keys(body).filter((name) => ctx.registry.contentType(USER_UID)?.attributes[name]?.writable !== false);
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (clientWritable(ctx, name) && body[name] !== undefined) out[name] = body[name];
  }
  return out;
}

/**
 * The attributes an app's extension added to the user (Strapi's `userSchemaAdditions`): what
 * register accepts unasked while `register.allowedFields` is not configured, which Strapi warns of.
 */
export function userSchemaAdditions(ctx: ServiceContext, builtIn: readonly string[]): string[] {
  const attributes = Object.keys(ctx.registry.contentType(USER_UID)?.attributes ?? {});
  const timestamps = new Set(['createdAt', 'updatedAt', 'publishedAt']);
  return attributes.filter((name) => !builtIn.includes(name) && !timestamps.has(name));
}

/** What `PUT /api/users/:id` writes besides username, email and password: every other attribute it may set. */
export function updatableExtraFields(ctx: ServiceContext, body: Body): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([name, value]) => value !== undefined && clientWritable(ctx, name)),
  );
}

/** What a user manager (`PUT /api/users/:id`, `plugin::users-permissions.user.update`) sets besides them: the role and the account flags. */
const MANAGED = ['role', 'confirmed', 'blocked'] as const;

/**
 * The role of a create or an update, checked as Strapi 4.26's user schemas do before the write: an
 * id (`strapiID`: a number or a string), or an object with a `connect` list of `{ id }` objects
 * (on update also a `disconnect` list, and not only removing the role; null is no object), yup's
 * issues in its order (`disconnect`'s first). An id naming no role is the write path's relation check.
 */
export function roleIssues(role: unknown, mode: 'create' | 'update'): ValidationIssue[] {
  if (role === undefined || role === '') return mode === 'create' ? [issue(['role'], messages.required(['role']))] : [];
  if (typeof role === 'number' || typeof role === 'string') return [];
  if (typeof role !== 'object') return [issue(['role'], messages.typeError(['role'], 'strapiID', role, role))];
  if (!isPlainObject(role)) return [issue(['role'], messages.typeError(['role'], 'object', role, role))];
  const issues: ValidationIssue[] = [];
  const list = (name: string): unknown[] | undefined => {
    const value = role[name];
    if (value === undefined) issues.push(issue(['role', name], messages.required(['role', name])));
    else if (!Array.isArray(value)) issues.push(issue(['role', name], messages.array(['role', name], value)));
    else return value;
    return undefined;
  };
  const disconnect = mode === 'update' ? list('disconnect') : undefined;
  const connect = list('connect');
  connect?.forEach((item, i) => {
    const at = ['role', 'connect', String(i)];
    if (!isPlainObject(item)) issues.push(issue(at, messages.typeError(at, 'object', item, item)));
    else if (item.id === undefined || item.id === null)
      issues.push(issue([...at, 'id'], messages.required([...at, 'id'])));
  });
  if (mode === 'create' && connect?.length === 0) issues.push(issue(['role', 'connect'], 'Users must have a role'));
  if (connect && disconnect && connect.length === 0 && disconnect.length > 0)
    issues.push(issue(['role', 'disconnect'], 'Cannot remove role'));
  return issues;
}

export function managedFields(body: Body): Record<string, unknown> {
  const issues = roleIssues(body.role, 'update');
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return Object.fromEntries(MANAGED.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}
