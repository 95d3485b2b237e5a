import { Router } from 'express';
import { USER_ACTIONS } from '../../../access/actions.js';
import { USER_UID } from '../../../content-types/index.js';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../../../errors/index.js';
import { operationContext, rawQuery } from '../../../operations/request-context.js';
import { hashPassword } from '../passwords.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';
import { allowedExtraFields } from '../user-fields.js';
import { userWithRole } from '../user-answer.js';
import { createUserByRequest } from '../user-create.js';
import { countUsers, findUsers } from '../user-query.js';
import { findUserById, sanitizeUser, updateUser, usernameOrEmailTaken } from '../users.js';
import { bodyObject, checkFields, USER_FIELD_RULES } from '../validation.js';
import { deleteEntry, issue } from '../../../write/index.js';
import { isDuplicate } from '../indexes.js';

function userId(raw: unknown): number {
  const id = typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new NotFoundError('User not found');
  return id;
}

/** `/users/me`, `/users` (list, create), `/users/count`, `/users/:id` (Strapi v4: plain user objects, no envelope). */
export function userRoutes(rt: UsersPermissionsRuntime): Router {
  const { ctx, settings } = rt;
  const router = Router();

  router.get('/users/me', async (req, res) => {
    const auth = authorize(req, USER_ACTIONS.me);
    if (!auth.user) throw new UnauthorizedError();
    const user = await findUserById(ctx, auth.user.id);
    if (!user) throw new UnauthorizedError();
    res.json(sanitizeUser(ctx, user));
  });

  router.get('/users/count', async (req, res) => {
    authorize(req, USER_ACTIONS.count);
    res.json(await countUsers(operationContext(ctx, req), rawQuery(req)));
  });

  router.get('/users', async (req, res) => {
    authorize(req, USER_ACTIONS.find);
    res.json(await findUsers(operationContext(ctx, req), rawQuery(req)));
  });

  router.post('/users', async (req, res) => {
    authorize(req, USER_ACTIONS.create);
    res.status(201).json(await createUserByRequest(operationContext(ctx, req), req.body));
  });

  router.get('/users/:id', async (req, res) => {
    authorize(req, USER_ACTIONS.findOne);
    const user = await findUserById(ctx, userId(req.params.id));
    if (!user) throw new NotFoundError('User not found');
    res.json(sanitizeUser(ctx, user));
  });

  router.put('/users/:id', async (req, res) => {
    authorize(req, USER_ACTIONS.update);
    const id = userId(req.params.id);
    const body = bodyObject(req.body);
    const existing = await findUserById(ctx, id);
    if (!existing) throw new NotFoundError('User not found');
    // Strapi's update schema: these may be left out, not empty
    const empty = ['email', 'username', 'password'].filter((name) => body[name] === '');
    if (empty.length > 0)
      throw ValidationError.fromIssues(empty.map((name) => issue([name], `${name} must be at least 1 characters`)));
    // Only what a client may set; role, confirmed, blocked, provider and tokens are ignored (CVE-2023-39345).
    const fields = checkFields(
      body,
      {
        email: USER_FIELD_RULES.email ?? [],
        username: USER_FIELD_RULES.username ?? [],
        password: USER_FIELD_RULES.password ?? [],
      },
      false,
    );
    const set: Record<string, unknown> = { ...allowedExtraFields(ctx, settings.allowedFields, body) };
    if (fields.username !== undefined) {
      if (await usernameOrEmailTaken(ctx, { username: fields.username }, id))
        throw new ApplicationError('Username already taken');
      set.username = fields.username;
    }
    if (fields.email !== undefined) {
      const email = fields.email.toLowerCase();
      if (await usernameOrEmailTaken(ctx, { email }, id)) throw new ApplicationError('Email already taken');
      set.email = email;
    }
    if (fields.password !== undefined) set.password = await hashPassword(fields.password);
    const user =
      Object.keys(set).length > 0
        ? await updateUser(ctx, id, set).catch((error: unknown) => {
            // taken by another request between the check and the write (unique indexes)
            if (isDuplicate(error, 'username')) throw new ApplicationError('Username already taken');
            if (isDuplicate(error, 'email')) throw new ApplicationError('Email already taken');
            throw error;
          })
        : existing;
    if (!user) throw new NotFoundError('User not found');
    res.json(await userWithRole(operationContext(ctx, req), user));
  });

  router.delete('/users/:id', async (req, res) => {
    authorize(req, USER_ACTIONS.destroy);
    const id = userId(req.params.id);
    const user = await findUserById(ctx, id);
    if (!user) throw new NotFoundError('User not found');
    // entries that link the user (a relation to plugin::users-permissions.user) stop pointing at it
    await deleteEntry(ctx.models, ctx.registry, USER_UID, id);
    res.json(sanitizeUser(ctx, user));
  });

  return router;
}
