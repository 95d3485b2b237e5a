/**
 * `PUT /api/users/:id` (`plugin::users-permissions.user.update`), as Strapi v4.26's user
 * controller, for REST and GraphQL's `updateUsersPermissionsUser` alike: the user must exist;
 * email, username and password may be left out but not empty or null; a username or (with `unique_email`)
 * an e-mail in use by another user is refused; besides them, what a user manager sets (role,
 * confirmed, blocked) and the app's own user attributes go through the write path. Answers the
 * stored user.
 */
import { ApplicationError, NotFoundError, ValidationError } from '../../errors/index.js';
import { entryIdFromPath, USER_UID } from '../../content-types/index.js';
import { UNRESTRICTED } from '../../query/index.js';
import type { ServiceContext } from '../../service-context.js';
import { issue, loadEntry, messages, updateEntry, writableContentType } from '../../write/index.js';
import { advancedSettings } from './advanced-settings.js';
import { allowSharedEmails, takenField } from './indexes.js';
import { managedFields, updatableExtraFields } from './user-fields.js';
import { emitUserEvent } from './user-events.js';
import { findUserById, usernameOrEmailTaken, type UserDoc } from './users.js';
import { bodyObject, checkFields, USER_FIELD_RULES } from './validation.js';

/** The user id a path or a GraphQL argument gives; anything else is an unknown user. */
export function userId(raw: unknown): number {
  const id = typeof raw === 'string' ? entryIdFromPath(raw) : undefined;
  if (id === undefined) throw new NotFoundError('User not found');
  return id;
}

export async function updateUserByRequest(ctx: ServiceContext, id: number, input: unknown): Promise<UserDoc> {
  const body = bodyObject(input);
  const existing = await findUserById(ctx, id);
  if (!existing) throw new NotFoundError('User not found');
  // Strapi's update schema: these may be left out, not empty nor null (yup's non-nullable strings)
  const invalid = ['email', 'username', 'password'].flatMap((name) =>
    body[name] === ''
      ? [issue([name], `${name} must be at least 1 characters`)]
      : body[name] === null
        ? [issue([name], messages.typeError([name], 'string', null, null))]
        : [],
  );
  if (invalid.length > 0) throw ValidationError.fromIssues(invalid);
  // Besides the app's own attributes, what a user manager sets (as Strapi 4.26 writes them); the
  // provider and the tokens stay out of reach.
  const fields = checkFields(
    body,
    {
      email: USER_FIELD_RULES.email ?? [],
      username: USER_FIELD_RULES.username ?? [],
      password: USER_FIELD_RULES.password ?? [],
    },
    { required: false },
  );
  // The app's own user attributes (an extension's scalars, relations, media) go through the write path.
  const data: Record<string, unknown> = { ...updatableExtraFields(ctx, body), ...managedFields(body) };
  if (fields.username !== undefined) {
    if (await usernameOrEmailTaken(ctx, { username: fields.username }, id))
      throw new ApplicationError('Username already taken');
    data.username = fields.username;
  }
  if (fields.email !== undefined) {
    // Strapi checks and lower-cases the address only with `unique_email` on
    if ((await advancedSettings(ctx)).unique_email) {
      const email = fields.email.toLowerCase();
      if (await usernameOrEmailTaken(ctx, { email }, id)) throw new ApplicationError('Email already taken');
      data.email = email;
    } else {
      await allowSharedEmails(ctx);
      data.email = fields.email;
    }
  }
  if (fields.password !== undefined) data.password = fields.password;
  if (Object.keys(data).length > 0) {
    const contentType = writableContentType(ctx, USER_UID);
    // Strapi writes the body through its entity service: no relation is dropped for the caller's read rights
    await updateEntry({ ...ctx, access: UNRESTRICTED }, contentType, await loadEntry(ctx, contentType, id), data).catch(
      (error: unknown) => {
        // taken by another request between the check and the write (unique indexes)
        const taken = takenField(error);
        if (taken === 'username') throw new ApplicationError('Username already taken');
        if (taken === 'email') throw new ApplicationError('Email already taken');
        throw error;
      },
    );
  }
  const user = await findUserById(ctx, id);
  if (!user) throw new NotFoundError('User not found');
  await emitUserEvent(ctx, 'entry.update', user);
  return user;
}
