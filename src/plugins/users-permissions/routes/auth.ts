import { Router, type RequestHandler } from 'express';
import { AUTH_ACTIONS } from '../../../access/actions.js';
import { ApplicationError, UnauthorizedError, ValidationError } from '../../../errors/index.js';
import { issueJwt } from '../jwt.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { rateLimit } from '../rate-limit.js';
import { findRole } from '../roles.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';
import { allowedExtraFields } from '../user-fields.js';
import {
  createUser, findUserById, findUserByIdentifier, findUserByResetCode, newResetCode, sanitizeUser, updateUser, usernameOrEmailTaken, type UserDoc,
} from '../users.js';
import { bodyObject, checkFields, USER_FIELD_RULES } from '../validation.js';

const TAKEN = 'Email or Username are already taken';

function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number } | null)?.code === 11000;
}

/** `/auth/local`, `/auth/local/register`, `/auth/forgot-password`, `/auth/reset-password`, `/auth/change-password`. */
export function authRoutes(rt: UsersPermissionsRuntime): Router {
  const { ctx, settings, secrets } = rt;
  const router = Router();
  const limited: RequestHandler[] = settings.ratelimit.enabled ? [rateLimit(settings.ratelimit)] : [];
  const session = (user: UserDoc) => ({ jwt: issueJwt(secrets.jwtSecret, user._id, settings.jwt.expiresIn), user: sanitizeUser(ctx, user) });

  router.post('/auth/local/register', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.register);
    const body = bodyObject(req.body);
    const fields = checkFields(body, { email: USER_FIELD_RULES.email ?? [], username: USER_FIELD_RULES.username ?? [], password: USER_FIELD_RULES.password ?? [] });
    const email = (fields.email ?? '').toLowerCase();
    const username = fields.username ?? '';
    if (await usernameOrEmailTaken(ctx, { username, email })) throw new ApplicationError(TAKEN);
    const role = await findRole(ctx, { type: 'authenticated' });
    if (!role) throw new ApplicationError('Impossible to find the default role');
    const user = await createUser(ctx, { username, email, password: fields.password ?? '', role: role._id, extra: allowedExtraFields(ctx, settings.allowedFields, body) })
      .catch((err: unknown) => { throw isDuplicateKey(err) ? new ApplicationError(TAKEN) : err; });
    res.json(session(user));
  });

  router.post('/auth/local', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.callback);
    const body = bodyObject(req.body);
    const { identifier = '', password = '' } = checkFields(body, { identifier: [{ kind: 'required' }], password: [{ kind: 'required' }] });
    const user = await findUserByIdentifier(ctx, identifier);
    // Always one bcrypt comparison, and one message whether or not the identifier exists.
    const ok = await verifyPassword(password, user?.password);
    if (!user || !ok) throw new ValidationError('Invalid identifier or password');
    if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
    res.json(session(user));
  });

  router.post('/auth/forgot-password', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.forgotPassword);
    const { email = '' } = checkFields(bodyObject(req.body), { email: [{ kind: 'required' }, { kind: 'email' }] });
    const user = await findUserByIdentifier(ctx, email);
    // The answer is the same whether or not the address belongs to someone.
    if (user && user.email === email.toLowerCase() && user.blocked !== true) {
      const { code, stored } = newResetCode();
      await updateUser(ctx, user._id, { resetPasswordToken: stored });
      const message = {
        to: user.email,
        subject: 'Reset password',
        text: `We heard that you lost your password. Sorry about that!\n\nBut don't worry! You can use the following link to reset your password:\n${settings.resetPasswordUrl}?code=${code}\n\nThanks.`,
      };
      if (settings.sendMail) await settings.sendMail(message);
      else ctx.logger.info({ mail: message }, 'reset-password e-mail (no mail transport configured)');
    }
    res.json({ ok: true });
  });

  router.post('/auth/reset-password', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.resetPassword);
    const body = bodyObject(req.body);
    const { code = '', password = '', passwordConfirmation = '' } = checkFields(body, {
      code: [{ kind: 'required' }], password: USER_FIELD_RULES.password ?? [], passwordConfirmation: [{ kind: 'required' }],
    });
    if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
    const found = await findUserByResetCode(ctx, code);
    if (!found) throw new ValidationError('Incorrect code provided');
    const user = await updateUser(ctx, found._id, { resetPasswordToken: null, password: await hashPassword(password) });
    if (!user) throw new ValidationError('Incorrect code provided');
    res.json(session(user));
  });

  router.post('/auth/change-password', ...limited, async (req, res) => {
    const auth = authorize(req, AUTH_ACTIONS.changePassword);
    if (!auth.user) throw new UnauthorizedError('You must be authenticated to reset your password');
    const body = bodyObject(req.body);
    const { currentPassword = '', password = '', passwordConfirmation = '' } = checkFields(body, {
      currentPassword: [{ kind: 'required' }], password: USER_FIELD_RULES.password ?? [], passwordConfirmation: [{ kind: 'required' }],
    });
    if (password !== passwordConfirmation) throw ValidationError.forPath(['passwordConfirmation'], 'Passwords do not match');
    const current = await findUserById(ctx, auth.user.id);
    if (!current) throw new UnauthorizedError('Invalid credentials');
    if (!(await verifyPassword(currentPassword, current.password))) throw new ValidationError('The provided current password is invalid');
    if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
    const user = await updateUser(ctx, current._id, { password: await hashPassword(password) });
    if (!user) throw new UnauthorizedError('Invalid credentials');
    res.json(session(user));
  });

  return router;
}
