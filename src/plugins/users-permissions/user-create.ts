/**
 * `POST /api/users` (`plugin::users-permissions.user.create`), as Strapi v4.26's user controller:
 * email, username, password and role required; an e-mail in use is refused (unless the advanced
 * setting `unique_email` is off); then the user is
 * created through the write path with the whole body (its own validation, `confirmed` and
 * `blocked` as given, password hashed), every failure there an ApplicationError with its message.
 * Answers the user with its role (user-answer.ts).
 */
import { ApplicationError, isAppError } from '../../errors/index.js';
import type { OperationContext } from '../../operations/index.js';
import { USER_UID } from '../../content-types/index.js';
import { createEntry } from '../../write/index.js';
import { advancedSettings } from './advanced-settings.js';
import { allowSharedEmails } from './indexes.js';
import { userWithRole } from './user-answer.js';
import { emitUserEvent } from './user-events.js';
import { roleIssues } from './user-fields.js';
import { findUserByEmail, findUserById } from './users.js';
import { bodyObject, checkFields } from './validation.js';

export async function createUserByRequest(
  ctx: OperationContext,
  input: unknown,
): Promise<{ id: number } & Record<string, unknown>> {
  const body = bodyObject(input);
  const { email = '' } = checkFields(
    body,
    {
      email: [{ kind: 'required' }, { kind: 'email' }],
      username: [{ kind: 'min', n: 1 }, { kind: 'required' }],
      // bcrypt reads 72 bytes (docs/strapi-deviations.md)
      password: [{ kind: 'min', n: 1 }, { kind: 'required' }, { kind: 'maxBytes', n: 72 }],
    },
    { also: roleIssues(body.role, 'create') },
  );
  // `unique_email` off: another user may have the address (the index lets it)
  if (!(await advancedSettings(ctx)).unique_email) await allowSharedEmails(ctx);
  else if (await findUserByEmail(ctx, email)) throw new ApplicationError('Email already taken');
  const contentType = ctx.registry.contentType(USER_UID);
  if (!contentType) throw new ApplicationError('Users are not available');
  let id: number;
  try {
    id = await createEntry(ctx, contentType, { ...body, email: email.toLowerCase(), provider: 'local' });
  } catch (err) {
    if (isAppError(err) && err.status === 400) throw new ApplicationError(err.message);
    throw err;
  }
  const user = await findUserById(ctx, id);
  if (!user) throw new ApplicationError('The user could not be read back');
  await emitUserEvent(ctx, 'entry.create', user);
  return userWithRole(ctx, user);
}
