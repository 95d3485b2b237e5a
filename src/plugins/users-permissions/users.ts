import { createHash, randomBytes } from 'node:crypto';
import { isManagedField, isPrivate, ROLE_UID, USER_UID } from '../../content-types/index.js';
import type { ServiceContext } from '../../service-context.js';
import { NotFoundError } from '../../errors/index.js';
import { formatScalar } from '../../query/index.js';
import { createEntry, writableContentType } from '../../write/index.js';
import { collectionOf } from './collections.js';
import { formatRole, type RoleDoc } from './roles.js';

/** Attribute types the query engine does not answer without a populate. */
const NOT_COLUMNS = new Set(['relation', 'media', 'component', 'dynamiczone']);
/** Managed fields the user's row has (Draft & Publish's and i18n's are not the user's). */
const STORED_MANAGED = new Set(['createdAt', 'updatedAt']);

export interface UserDoc {
  _id: number;
  username: string;
  email: string;
  provider?: string | null;
  password?: string | null;
  resetPasswordToken?: string | null;
  confirmationToken?: string | null;
  confirmed?: boolean | null;
  blocked?: boolean | null;
  role?: number | null;
  createdAt?: Date;
  updatedAt?: Date;
  [key: string]: unknown;
}

/**
 * What a client sees of a user signed in, registered, created or updated: the non-private columns
 * of its row (never password or tokens), as Strapi's query engine reads it without populate: no
 * relation, media, component or dynamic zone (a component's fields are not the user's columns).
 */
export function sanitizeUser(ctx: ServiceContext, doc: UserDoc): { id: number } & Record<string, unknown> {
  const ct = ctx.registry.contentType(USER_UID);
  const out: { id: number } & Record<string, unknown> = { id: doc._id };
  if (!ct) return out;
  for (const [name, attr] of Object.entries(ct.attributes)) {
    // the timestamps are answered; Draft & Publish's and i18n's fields are not (an own `locale` is)
    const hidden = isManagedField(ct, name) && name !== 'createdAt' && name !== 'updatedAt';
    if (isPrivate(attr) || NOT_COLUMNS.has(attr.type) || hidden) continue;
    out[name] = formatScalar(attr, doc[name]);
  }
  return out;
}

/**
 * The user as Strapi v4's users-permissions strategy hands it to app code (`ctx.state.user`): the
 * query engine's row (`fetchAuthenticatedUser`: every scalar column, private ones included, no
 * relation) with its role populated.
 */
export function userCredentials(
  ctx: ServiceContext,
  doc: UserDoc,
  role: RoleDoc | null,
): { id: number } & Record<string, unknown> {
  const ct = ctx.registry.contentType(USER_UID);
  const out: { id: number } & Record<string, unknown> = { id: doc._id };
  for (const [name, attr] of Object.entries(ct?.attributes ?? {})) {
    if (NOT_COLUMNS.has(attr.type) || (ct && isManagedField(ct, name) && !STORED_MANAGED.has(name))) continue;
    out[name] = formatScalar(attr, doc[name]);
  }
  out.role = role ? formatRole(role) : null;
  return out;
}

export async function findUserById(ctx: ServiceContext, id: number): Promise<UserDoc | null> {
  return await collectionOf<UserDoc>(ctx, USER_UID).findOne({ _id: id });
}

/**
 * The user of a request's JWT and its role's document, read by one command: the role's `__grants`
 * stamp, read fresh with the user, tells whether the actions cached for the role are still its own.
 */
export async function findUserWithRole(
  ctx: ServiceContext,
  id: number,
): Promise<{ user: UserDoc; role: RoleDoc | null } | null> {
  const roles = collectionOf(ctx, ROLE_UID).collectionName;
  const doc = await ctx.models.aggregateFirst(USER_UID, [
    { $match: { _id: id } },
    { $limit: 1 },
    { $lookup: { from: roles, localField: 'role', foreignField: '_id', as: '__role' } },
  ]);
  if (!doc) return null;
  const { __role: found, ...user } = doc as UserDoc & { __role?: RoleDoc[] };
  return { user, role: found?.[0] ?? null };
}

/** Strapi: the identifier is the e-mail (lower-cased) or the exact username. */
export async function findUserByIdentifier(ctx: ServiceContext, identifier: string): Promise<UserDoc | null> {
  return (await collectionOf<UserDoc>(ctx, USER_UID).findOne({
    provider: 'local',
    $or: [{ email: identifier.toLowerCase() }, { username: identifier }],
  })) as UserDoc | null;
}

export async function findUserByResetCode(ctx: ServiceContext, code: string): Promise<UserDoc | null> {
  if (code === '') return null;
  return (await collectionOf(ctx, USER_UID).findOne({ resetPasswordToken: hashResetCode(code) })) as UserDoc | null;
}

export async function findUserByConfirmationToken(ctx: ServiceContext, token: string): Promise<UserDoc | null> {
  if (token === '') return null;
  return await collectionOf<UserDoc>(ctx, USER_UID).findOne({ confirmationToken: hashResetCode(token) });
}

/** Strapi's look-up of `send-email-confirmation`: the lower-cased e-mail, any provider. */
export async function findUserByEmail(ctx: ServiceContext, email: string): Promise<UserDoc | null> {
  return await collectionOf<UserDoc>(ctx, USER_UID).findOne({ email: email.toLowerCase() });
}

export async function usernameOrEmailTaken(
  ctx: ServiceContext,
  fields: { username?: string; email?: string },
  exceptId?: number,
): Promise<boolean> {
  const or: Record<string, unknown>[] = [];
  if (fields.username !== undefined) or.push({ username: fields.username });
  if (fields.email !== undefined) or.push({ email: fields.email });
  if (or.length === 0) return false;
  const filter: Record<string, unknown> = { $or: or };
  if (exceptId !== undefined) filter._id = { $ne: exceptId };
  return (await collectionOf(ctx, USER_UID).countDocuments(filter, { limit: 1 })) > 0;
}

/**
 * Register's check (Strapi 4.26): the e-mail (lower-cased) and the username are each compared with
 * both the usernames and the e-mails of the users, so a username that is another user's e-mail is
 * taken too. With `unique_email` off only users of the local provider count.
 */
export async function registerConflict(
  ctx: ServiceContext,
  fields: { username: string; email: string },
  uniqueEmail: boolean,
): Promise<boolean> {
  const { username, email } = fields;
  const filter: Record<string, unknown> = {
    $or: [{ email }, { username: email }, { username }, { email: username }],
  };
  if (!uniqueEmail) filter.provider = 'local';
  return (await collectionOf(ctx, USER_UID).countDocuments(filter, { limit: 1 })) > 0;
}

/**
 * Creates a user through the write path, so the app's own user attributes (an extension's
 * scalars, relations, media, components) are validated and written as on any content-type.
 */
/** A new user's values: its own fields, and the extra attributes of the app's user type */
export interface NewUser {
  username: string;
  email: string;
  password: string;
  role: number;
  confirmed: boolean;
  extra?: Record<string, unknown>;
}

export async function createUser(ctx: ServiceContext, input: NewUser): Promise<UserDoc> {
  const id = await createEntry(ctx, writableContentType(ctx, USER_UID), {
    ...input.extra,
    username: input.username,
    email: input.email.toLowerCase(),
    provider: 'local',
    password: input.password,
    confirmed: input.confirmed,
    blocked: false,
    role: input.role,
  });
  const user = await findUserById(ctx, id);
  if (!user) throw new NotFoundError('User not found');
  return user;
}

export async function updateUser(
  ctx: ServiceContext,
  id: number,
  set: Record<string, unknown>,
  /** what the user must still store for the update to apply (null when it no longer does) */
  unless: Record<string, unknown> = {},
): Promise<UserDoc | null> {
  const doc = await ctx.models
    .model(USER_UID)
    .findOneAndUpdate({ ...unless, _id: id }, { $set: set }, { returnDocument: 'after', runValidators: true })
    .lean();
  return doc as UserDoc | null;
}

/** A reset code is sent to the user; only its SHA-256 is stored, so the stored value cannot be replayed. */
export function newResetCode(): { code: string; stored: string } {
  const code = randomBytes(32).toString('hex');
  return { code, stored: hashResetCode(code) };
}

export function hashResetCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
