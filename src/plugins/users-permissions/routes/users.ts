import { USER_ACTIONS } from '../../../access/actions.js';
import { entryIdFromPath, USER_UID } from '../../../content-types/index.js';
import { NotFoundError, UnauthorizedError } from '../../../errors/index.js';
import { operationContext, rawQuery } from '../../../operations/request-context.js';
import { deleteEntry, withLifecycles } from '../../../write/index.js';
import type { PluginRoute } from '../../types.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';
import { userWithRole } from '../user-answer.js';
import { emitUserEvent } from '../user-events.js';
import { createUserByRequest } from '../user-create.js';
import { checkUserQuery, countUsers, findUser, findUsers } from '../user-query.js';
import { updateUserByRequest, userId } from '../user-update.js';
import { findUserById, sanitizeUser } from '../users.js';

/** A user id as a project's strategy may have set it on `ctx.state.user`: an integer, or its text. */
function entryIdOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  return typeof value === 'string' ? entryIdFromPath(value) : undefined;
}

/** `/users/me`, `/users` (list, create), `/users/count`, `/users/:id` (Strapi v4: plain user objects, no envelope). */
export function userRoutes(rt: UsersPermissionsRuntime): PluginRoute[] {
  const { ctx } = rt;
  const routes: PluginRoute[] = [];
  const route = (method: PluginRoute['method'], path: string, action: string, run: PluginRoute['run']) =>
    routes.push({ method, path, handler: `user.${action}`, config: { prefix: '' }, run });

  // Strapi's `me` reads `ctx.state.user`: the JWT's user, or what a project's strategy set there; that
  // user's id read again (an id naming no user answers Strapi's empty body, a 204)
  route('GET', '/users/me', 'me', async (req, res) => {
    const auth = authorize(req, USER_ACTIONS.me);
    if (auth.user) {
      const user = await findUser(operationContext(ctx, req), auth.user.id, rawQuery(req));
      if (!user) throw new UnauthorizedError();
      res.json(user);
      return;
    }
    const set = auth.app?.stateUser;
    if (typeof set !== 'object' || set === null) throw new UnauthorizedError();
    const id = entryIdOf((set as { id?: unknown }).id);
    const user = id === undefined ? null : await findUser(operationContext(ctx, req), id, rawQuery(req));
    if (user) res.json(user);
    else res.status(204).json(null);
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
    const operation = operationContext(ctx, req);
    const query = rawQuery(req);
    const id = typeof req.params.id === 'string' ? entryIdFromPath(req.params.id) : undefined;
    // the query's 400 comes first, as Strapi validates it before it looks for the user
    if (id === undefined) checkUserQuery(operation, query);
    const user = id === undefined ? null : await findUser(operation, id, query);
    if (!user) throw new NotFoundError('User not found');
    res.json(user);
  });

  route('PUT', '/users/:id', 'update', async (req, res) => {
    authorize(req, USER_ACTIONS.update);
    const user = await updateUserByRequest(ctx, userId(req.params.id), req.body);
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
      if (!(await deleteEntry(ctx.models, ctx.registry, USER_UID, id))) throw new NotFoundError('User not found');
      return id;
    });
    await emitUserEvent(ctx, 'entry.delete', user);
    res.json(sanitizeUser(ctx, user));
  });
  return routes;
}
