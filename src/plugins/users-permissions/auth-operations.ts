import type { RequestAuth } from '../../access/ability.js';
import { ApplicationError, UnauthorizedError, ValidationError } from '../../errors/index.js';
import { emailServiceOf } from '../email/index.js';
import { advancedSettings } from './advanced-settings.js';
import { sendAuthMail, serverUrl, type MailSender } from './auth-mails.js';
import { issueJwt } from './jwt.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findRole } from './roles.js';
import type { UsersPermissionsRuntime } from './runtime.js';
import { takenField } from './indexes.js';
import { allowedExtraFields } from './user-fields.js';
import { userWithRole } from './user-answer.js';
import { emitUserEvent } from './user-events.js';
import type { OperationContext } from '../../operations/index.js';
import type { ServiceContext } from '../../service-context.js';
import {
  createUser,
  findUserByConfirmationToken,
  findUserByEmail,
  findUserById,
  findUserByIdentifier,
  findUserByResetCode,
  newResetCode,
  sanitizeUser,
  updateUser,
  registerConflict,
  type NewUser,
  type UserDoc,
} from './users.js';
import { bodyObject, checkFields, USER_FIELD_RULES } from './validation.js';
import type { GrantSettings } from './providers/grant-settings.js';
import { providerUser } from './providers/sign-in.js';

/** `{ jwt, user }`, as Strapi v4's register, login, reset and change-password answer. */

/** Strapi's user service `edit`, which its auth flows call: the update, then the entity service's `entry.update`. */
async function editUser(
  ctx: ServiceContext,
  id: number,
  set: Record<string, unknown>,
  unless?: Record<string, unknown>,
): Promise<UserDoc | null> {
  const user = await updateUser(ctx, id, set, unless);
  if (user) await emitUserEvent(ctx, 'entry.update', user);
  return user;
}

export interface AuthSession {
  jwt: string;
  user: { id: number } & Record<string, unknown>;
}

const TAKEN = 'Email or Username are already taken';
const REQUIRED = { kind: 'required' } as const;
/** The user content-type's own checks, which Strapi runs when it writes the user, after the controller's. */
const passwordRules = USER_FIELD_RULES.password ?? [];
const usernameRules = USER_FIELD_RULES.username ?? [];

function session(
  rt: UsersPermissionsRuntime,
  user: UserDoc,
  answer: AuthSession['user'] = sanitizeUser(rt.ctx, user),
): AuthSession {
  return { jwt: issueJwt(rt.secrets.jwtSecret, user._id, rt.settings.jwt.expiresIn), user: answer };
}

/** The e-mail plugin's `send`; without the plugin, Strapi's mails fail. */
function mailer(rt: UsersPermissionsRuntime): MailSender {
  return async (options) => {
    const service = emailServiceOf(rt.ctx);
    if (!service) throw new ApplicationError('The email plugin is disabled: users-permissions cannot send e-mails');
    return service.send(options);
  };
}

/**
 * The confirmation mail (the store's `email_confirmation` template): a new token, stored as its
 * SHA-256, and the link `<server>/api/auth/email-confirmation?confirmation=<token>` sent.
 */
async function sendConfirmation(rt: UsersPermissionsRuntime, user: UserDoc): Promise<void> {
  const { ctx } = rt;
  const { code, stored } = newResetCode();
  await editUser(ctx, user._id, { confirmationToken: stored });
  await sendAuthMail(ctx, mailer(rt), 'email_confirmation', user.email, sanitizeUser(ctx, user), {
    URL: `${serverUrl(ctx)}${ctx.config.api.rest.prefix}/auth/email-confirmation`,
    CODE: code,
  });
}

/**
 * Strapi's register adds the user with the plugin's `user` service: where the app replaced or
 * wrapped it (`plugin.services.user` in its extension), its `add` gets the values Strapi hands it
 * (the password in clear: its entity service hashes it, and emits the entry's event).
 */
async function addUser(ctx: ServiceContext, input: NewUser): Promise<UserDoc> {
  const appUsers = ctx.appPluginService?.('users-permissions', 'user');
  const add = typeof appUsers === 'object' && appUsers !== null ? Reflect.get(appUsers, 'add') : undefined;
  if (typeof add !== 'function') {
    const user = await createUser(ctx, input);
    await emitUserEvent(ctx, 'entry.create', user);
    return user;
  }
  const { extra, ...own } = input;
  const added: unknown = await Reflect.apply(add, appUsers, [{ ...extra, ...own, provider: 'local' }]);
  const id = typeof added === 'object' && added !== null ? Reflect.get(added, 'id') : undefined;
  const user = typeof id === 'number' ? await findUserById(ctx, id) : null;
  if (!user) throw new Error("the app's users-permissions user service add() answered no stored user");
  return user;
}

/**
 * The user service's `sendConfirmationEmail(user)` (Strapi 4.26), which projects call from their
 * own sign-up flows: a new confirmation token for the stored user, and the mail to `user.email`.
 */
export async function sendConfirmationEmail(
  rt: UsersPermissionsRuntime,
  user: { id?: unknown; email?: unknown },
): Promise<void> {
  const id = Number(user.id);
  const stored = Number.isInteger(id) ? await findUserById(rt.ctx, id) : null;
  if (!stored) throw new ApplicationError('sendConfirmationEmail: no user has this id');
  await sendConfirmation(rt, typeof user.email === 'string' ? { ...stored, email: user.email } : stored);
}

/**
 * Register (REST and GraphQL): only username, email, password and the configured allowed fields are
 * read; the store's advanced settings may close it (`allow_register`) or name the new user's role.
 * With `email_confirmation` the user is created unconfirmed, gets the confirmation mail, and the
 * answer is `{ user }` without a jwt (a failed mail is an ApplicationError with its message; the
 * user stays, as in Strapi).
 */
export async function register(
  rt: UsersPermissionsRuntime,
  input: unknown,
  caller?: OperationContext,
): Promise<AuthSession | { user: AuthSession['user'] }> {
  const { ctx, settings } = rt;
  const answered = (user: UserDoc) => (caller ? userWithRole(caller, user) : sanitizeUser(ctx, user));
  // Strapi picks the register fields out of the body: an array or a text picks none
  const body = Array.isArray(input) || typeof input === 'string' ? {} : bodyObject(input);
  // Strapi checks presence and the e-mail's form, then whether the name is taken, and only then
  // the lengths (when it writes the user), so each stage's errors are reported alone.
  const fields = checkFields(body, {
    email: [REQUIRED, { kind: 'email' }],
    username: [REQUIRED],
    password: [REQUIRED],
  });
  const email = (fields.email ?? '').toLowerCase();
  const username = fields.username ?? '';
  const advanced = await advancedSettings(ctx);
  if (!advanced.allow_register) throw new ApplicationError('Register action is currently disabled');
  if (await registerConflict(ctx, { username, email }, advanced.unique_email)) throw new ApplicationError(TAKEN);
  checkFields(body, { username: usernameRules, password: passwordRules });
  const role = await findRole(ctx, { type: advanced.default_role });
  if (!role) throw new ApplicationError('Impossible to find the default role');
  const user = await addUser(ctx, {
    username,
    email,
    password: fields.password ?? '',
    role: role._id,
    confirmed: !advanced.email_confirmation,
    extra: allowedExtraFields(ctx, settings.allowedFields, body),
  }).catch((err: unknown) => {
    throw takenField(err) ? new ApplicationError(TAKEN) : err;
  });
  if (!advanced.email_confirmation) return session(rt, user, await answered(user));
  await sendConfirmation(rt, user).catch((err: unknown) => {
    throw err instanceof ApplicationError
      ? err
      : new ApplicationError(err instanceof Error ? err.message : String(err));
  });
  return { user: await answered(user) };
}

/** Login with e-mail or username; one answer for an unknown identifier and a wrong password. */
export async function login(rt: UsersPermissionsRuntime, input: unknown): Promise<AuthSession> {
  const { identifier = '', password = '' } = checkFields(bodyObject(input), {
    identifier: [{ kind: 'required' }],
    password: [{ kind: 'required' }],
  });
  const user = await findUserByIdentifier(rt.ctx, identifier);
  // Always one bcrypt comparison, so timing does not tell whether the identifier exists.
  const ok = await verifyPassword(password, user?.password);
  if (!user || !ok) throw new ValidationError('Invalid identifier or password');
  if (user.confirmed !== true && (await advancedSettings(rt.ctx)).email_confirmation)
    throw new ApplicationError('Your account email is not confirmed');
  if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
  return session(rt, user);
}

/**
 * Sign-in through a provider with the access token in `query` (REST `GET /auth/<provider>/callback`,
 * GraphQL `login` with a provider): as Strapi's controller, every failure (a bad token, a blocked
 * user, registration closed...) is a 400 ApplicationError with its message.
 */
export async function providerSession(
  rt: UsersPermissionsRuntime,
  provider: string,
  query: unknown,
  grant: GrantSettings,
): Promise<AuthSession> {
  try {
    const user = await providerUser(rt, provider, query, grant);
    if (user.blocked) throw new Error('Your account has been blocked by an administrator');
    return session(rt, user);
  } catch (err) {
    throw new ApplicationError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Sends a reset link (the store's `reset_password` template; `URL` is the advanced setting
 * `email_reset_password`, else `resetPasswordUrl` of the plugin's config) when the address belongs
 * to a user who is not blocked; the answer is the same either way.
 */
export async function forgotPassword(rt: UsersPermissionsRuntime, input: unknown): Promise<{ ok: true }> {
  const { ctx, settings } = rt;
  const { email = '' } = checkFields(bodyObject(input), { email: [REQUIRED, { kind: 'email' }] }, { noUnknown: true });
  const user = await findUserByIdentifier(ctx, email);
  if (user && user.email === email.toLowerCase() && user.blocked !== true) {
    const advanced = await advancedSettings(ctx);
    const { code, stored } = newResetCode();
    // stored before the mail is sent, as Strapi does, so a failed mail leaves a usable code
    await editUser(ctx, user._id, { resetPasswordToken: stored });
    await sendAuthMail(ctx, mailer(rt), 'reset_password', user.email, sanitizeUser(ctx, user), {
      URL: advanced.email_reset_password ?? settings.resetPasswordUrl,
      TOKEN: code,
    });
  }
  return { ok: true };
}

export async function resetPassword(rt: UsersPermissionsRuntime, input: unknown): Promise<AuthSession> {
  const {
    code = '',
    password = '',
    passwordConfirmation = '',
    // in the order Strapi reports them (yup sorts the fields, passwordConfirmation refers to password)
  } = checkFields(
    bodyObject(input),
    { passwordConfirmation: [REQUIRED], password: [REQUIRED], code: [REQUIRED] },
    { noUnknown: true },
  );
  if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
  const found = await findUserByResetCode(rt.ctx, code);
  if (!found) throw new ValidationError('Incorrect code provided');
  checkFields({ password }, { password: passwordRules });
  // a code resets once: of parallel uses, the one that still finds it stored wins
  const user = await editUser(
    rt.ctx,
    found._id,
    { resetPasswordToken: null, password: await hashPassword(password) },
    { resetPasswordToken: found.resetPasswordToken },
  );
  if (!user) throw new ValidationError('Incorrect code provided');
  return session(rt, user);
}

export async function changePassword(
  rt: UsersPermissionsRuntime,
  auth: RequestAuth,
  input: unknown,
): Promise<AuthSession> {
  if (!auth.user) throw new ApplicationError('You must be authenticated to reset your password');
  // the rules in the order Strapi reports them
  const { currentPassword = '', password = '' } = checkFields(
    bodyObject(input),
    {
      passwordConfirmation: [REQUIRED, { kind: 'sameAs', field: 'password', message: 'Passwords do not match' }],
      password: [REQUIRED],
      currentPassword: [REQUIRED],
    },
    { noUnknown: true },
  );
  const current = await findUserById(rt.ctx, auth.user.id);
  if (!current) throw new UnauthorizedError('Invalid credentials');
  if (!(await verifyPassword(currentPassword, current.password)))
    throw new ValidationError('The provided current password is invalid');
  if (currentPassword === password)
    throw new ValidationError('Your new password must be different than your current password');
  checkFields({ password }, { password: passwordRules });
  const user = await editUser(rt.ctx, current._id, { password: await hashPassword(password) });
  if (!user) throw new UnauthorizedError('Invalid credentials');
  return session(rt, user);
}

/**
 * `GET /auth/email-confirmation?confirmation=` (and GraphQL `emailConfirmation`): confirms the
 * user the token was sent to (the token is then spent); the confirmed user.
 */
export async function confirmEmail(rt: UsersPermissionsRuntime, input: unknown): Promise<UserDoc> {
  const { confirmation = '' } = checkFields(bodyObject(input), { confirmation: [{ kind: 'required' }] });
  const user = await findUserByConfirmationToken(rt.ctx, confirmation);
  if (!user) throw new ValidationError('Invalid token');
  // a token confirms once: of parallel uses, the one that still finds it stored wins
  const confirmed = await editUser(
    rt.ctx,
    user._id,
    { confirmed: true, confirmationToken: null },
    { confirmationToken: user.confirmationToken },
  );
  if (!confirmed) throw new ValidationError('Invalid token');
  return confirmed;
}

/** GraphQL's `emailConfirmation`: `{ jwt, user }` of the user confirmed, as Strapi answers it there. */
export async function confirmEmailSession(rt: UsersPermissionsRuntime, input: unknown): Promise<AuthSession> {
  return session(rt, await confirmEmail(rt, input));
}

/**
 * `POST /auth/send-email-confirmation`: a new confirmation link for a user who is not confirmed;
 * the same answer for an address nobody has.
 */
export async function sendEmailConfirmation(
  rt: UsersPermissionsRuntime,
  input: unknown,
): Promise<{ email: string; sent: true }> {
  const { ctx } = rt;
  const { email = '' } = checkFields(bodyObject(input), { email: [{ kind: 'required' }, { kind: 'email' }] });
  const user = await findUserByEmail(ctx, email);
  if (!user) return { email, sent: true };
  if (user.confirmed === true) throw new ApplicationError('Already confirmed');
  if (user.blocked === true) throw new ApplicationError('User blocked');
  await sendConfirmation(rt, user);
  return { email: user.email, sent: true };
}
