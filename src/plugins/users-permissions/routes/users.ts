import { USER_ACTIONS } from '../../../access/actions.js';
import { entryIdFromPath, USER_UID } from '../../../content-types/index.js';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../../../errors/index.js';
import { operationContext, rawQuery } from '../../../operations/request-context.js';
import {
  deleteEntry,
  issue,
  loadEntry,
  updateEntry,
  withLifecycles,
  writableContentType,
} from '../../../write/index.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';
import { managedFields, updatableExtraFields } from '../user-fields.js';
import { userWithRole } from '../user-answer.js';
import { createUserByRequest } from '../user-create.js';
import { advancedSettings } from '../advanced-settings.js';
import { allowSharedEmails } from '../indexes.js';
import { countUsers, findUser, findUsers } from '../user-query.js';
import { findUserById, sanitizeUser, usernameOrEmailTaken } from '../users.js';
import { bodyObject, checkFields, USER_FIELD_RULES } from '../validation.js';
import { takenField } from '../indexes.js';
import { UNRESTRICTED } from '../../../query/index.js';
import type { PluginRoute } from '../../types.js';

function userId(raw: unknown): number {
  const id = typeof raw === 'string' ? entryIdFromPath(raw) : undefined;
  if (id === undefined) throw new NotFoundError('User not found');
  return id;
}

/** `/users/me`, `/users` (list, create), `/users/count`, `/users/:id` (Strapi v4: plain user objects, no envelope). */
export function userRoutes(rt: UsersPermissionsRuntime): PluginRoute[] {
  const { ctx } = rt;
  const routes: PluginRoute[] = [];
  const route = (method: PluginRoute['method'], path: string, action: string, run: PluginRoute['run']) =>
    routes.push({ method, path, handler: `user.${action}`, config: { prefix: '' }, run });

  route('GET', '/users/me', 'me', async (req, res) => {
    const auth = authorize(req, USER_ACTIONS.me);
    if (!auth.user) throw new UnauthorizedError();
    const user = await findUser(operationContext(ctx, req), auth.user.id, rawQuery(req));
    if (!user) throw new UnauthorizedError();
    res.json(user);
  });

  route('GET', '/users/count', 'count', async (req, res) => {
    authorize(req, USER_ACTIONS.count);
    res.json(await countUsers(operationContext(ctx, req), rawQuery(req)));
  });

  route('GET', '/users', 'find', async (req, res) => {
    authorize(req, USER_ACTIONS.find);
    res.json(await findUsers(operationContext(ctx, req), rawQuery(req)));
  });

  route('POST', '/users', 'create', async (req, res) => {
    authorize(req, USER_ACTIONS.create);
    res.status(201).json(await createUserByRequest(operationContext(ctx, req), req.body));
  });

  route('GET', '/users/:id', 'findOne', async (req, res) => {
    authorize(req, USER_ACTIONS.findOne);
    const user = await findUser(operationContext(ctx, req), userId(req.params.id), rawQuery(req));
    if (!user) throw new NotFoundError('User not found');
    res.json(user);
  });

  route('PUT', '/users/:id', 'update', async (req, res) => {
    authorize(req, USER_ACTIONS.update);
    const id = userId(req.params.id);
    const body = bodyObject(req.body);
    const existing = await findUserById(ctx, id);
    if (!existing) throw new NotFoundError('User not found');
    // Strapi's update schema: these may be left out, not empty
    const empty = ['email', 'username', 'password'].filter((name) => body[name] === '');
    if (empty.length > 0)
      throw ValidationError.fromIssues(empty.map((name) => issue([name], `${name} must be at least 1 characters`)));
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
      await updateEntry(
        { ...ctx, access: UNRESTRICTED },
        contentType,
        await loadEntry(ctx, contentType, id),
        data,
      ).catch((error: unknown) => {
        // taken by another request between the check and the write (unique indexes)
        const taken = takenField(error);
        if (taken === 'username') throw new ApplicationError('Username already taken');
        if (taken === 'email') throw new ApplicationError('Email already taken');
        throw error;
      });
    }
    const user = await findUserById(ctx, id);
    if (!user) throw new NotFoundError('User not found');
    res.json(await userWithRole(operationContext(ctx, req), user));
  });

  route('DELETE', '/users/:id', 'destroy', async (req, res) => {
    authorize(req, USER_ACTIONS.destroy);
    const id = userId(req.params.id);
    const user = await findUserById(ctx, id);
    if (!user) throw new NotFoundError('User not found');
    // entries that link the user (a relation to plugin::users-permissions.user) stop pointing at it;
    // the delete hooks see the id as the path gives it, as Strapi's
    const params = { where: { id: req.params.id } };
    await withLifecycles(ctx, { action: 'Delete', uid: USER_UID, params, id }, async () => {
      await deleteEntry(ctx.models, ctx.registry, USER_UID, id);
      return id;
    });
    res.json(sanitizeUser(ctx, user));
  });
  return routes;
}
