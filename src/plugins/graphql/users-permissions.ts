/**
 * users-permissions' own GraphQL types and fields (Strapi v4's plugin extension): `me`,
 * `register`, `login`, `forgotPassword`, `resetPassword`, `changePassword`, `emailConfirmation`
 * and the role payload mutations. They call the plugin's operations, as its REST routes do.
 */
import type { SchemaComposer } from 'graphql-compose';
import { ApplicationError, NotFoundError } from '../../errors/index.js';
import * as operations from '../../operations/index.js';
import {
  changePassword,
  confirmEmailSession,
  createUserByRequest,
  enabledProvider,
  forgotPassword,
  login,
  providerSession,
  register,
  resetPassword,
  updateUserByRequest,
  userId,
  usersPermissionsRuntime,
  type UsersPermissionsRuntime,
} from '../users-permissions/index.js';
import { deleteRoleOfUsers, findRole, requireRole } from '../users-permissions/roles.js';
import { changeCheckedRole, createCheckedRole } from '../users-permissions/routes/roles.js';
import { findUserById } from '../users-permissions/users.js';
import type { Registry } from '../../content-types/index.js';
import type { GraphQLContext } from './context.js';
import { operationContext } from './context.js';
import type { RootField } from './shadow-crud.js';
import { USER_UID } from './exposed.js';
import { ShownInternalError } from './errors.js';
import { selectionQuery } from './selection.js';
import { isRecord, plain } from './values.js';

type Composer = SchemaComposer<GraphQLContext>;
type Args = Record<string, unknown>;

export function addUsersPermissionsTypes(sc: Composer): void {
  sc.createObjectTC({
    name: 'UsersPermissionsMeRole',
    fields: { id: 'ID!', name: 'String!', description: 'String', type: 'String' },
  });
  sc.createObjectTC({
    name: 'UsersPermissionsMe',
    fields: {
      id: 'ID!',
      username: 'String!',
      email: 'String',
      confirmed: 'Boolean',
      blocked: 'Boolean',
      role: 'UsersPermissionsMeRole',
    },
  });
  sc.createObjectTC({ name: 'UsersPermissionsLoginPayload', fields: { jwt: 'String', user: 'UsersPermissionsMe!' } });
  sc.createObjectTC({ name: 'UsersPermissionsPasswordPayload', fields: { ok: 'Boolean!' } });
  for (const name of [
    'UsersPermissionsCreateRolePayload',
    'UsersPermissionsUpdateRolePayload',
    'UsersPermissionsDeleteRolePayload',
  ]) {
    sc.createObjectTC({ name, fields: { ok: 'Boolean!' } });
  }
  sc.createInputTC({
    name: 'UsersPermissionsLoginInput',
    fields: { identifier: 'String!', password: 'String!', provider: { type: 'String!', defaultValue: 'local' } },
  });
  sc.createInputTC({
    name: 'UsersPermissionsRegisterInput',
    fields: { username: 'String!', email: 'String!', password: 'String!' },
  });
}

function runtime(ctx: GraphQLContext): UsersPermissionsRuntime {
  const rt = usersPermissionsRuntime(ctx.service);
  if (!rt) throw new ApplicationError('users-permissions is not enabled');
  return rt;
}

/** The `UsersPermissionsMe` of a user: its fields plus its role. */
async function meOf(ctx: GraphQLContext, user: Record<string, unknown>): Promise<Record<string, unknown>> {
  const roleId =
    typeof user.role === 'number'
      ? user.role
      : isRecord(user.role) && typeof user.role.id === 'number'
        ? user.role.id
        : null;
  const stored = roleId === null ? await findUserById(ctx.service, Number(user.id)) : null;
  const id = roleId ?? (typeof stored?.role === 'number' ? stored.role : null);
  const role = id === null ? null : await findRole(ctx.service, { _id: id });
  return {
    ...user,
    role: role ? { id: role._id, name: role.name, description: role.description ?? null, type: role.type } : null,
  };
}

/**
 * `{ jwt, user }` of login, register, password changes and e-mail confirmation: Strapi answers the
 * user as read without its role, so `user.role` is null there (only `me` resolves it), but for a
 * register whose caller may read roles (its answer then carries the role, as REST's).
 * A register awaiting e-mail confirmation has no jwt (null, as Strapi answers).
 */
async function session(promise: Promise<{ jwt?: string; user: Record<string, unknown> }>): Promise<unknown> {
  const answer = await promise;
  return { jwt: 'jwt' in answer ? answer.jwt : null, user: { role: null, ...answer.user } };
}

const ok = { ok: true };

export function usersPermissionsQueries(): Record<string, RootField> {
  return {
    me: {
      type: 'UsersPermissionsMe',
      action: 'plugin::users-permissions.user.me',
      resolve: async (_p, _a, ctx) => {
        // Strapi's resolver answers `context.state.user`: the JWT's user, or what a project's strategy set there
        const set = ctx.auth.app ? ctx.state.user : undefined;
        const user = ctx.auth.user ?? (isRecord(set) ? set : undefined);
        // Strapi's resolver throws a plain error here (an API token's caller has no user)
        if (!user) throw new ShownInternalError('Authentication requested');
        return meOf(ctx, user);
      },
    },
  };
}

/** A missing entry is `{ data: null }`, not an error. */
async function orNull<T>(read: Promise<T>): Promise<T | { data: null }> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return { data: null };
    throw err;
  }
}

/** Strapi's order of the plugin's mutations. */
const MUTATION_ORDER = [
  'createUsersPermissionsRole',
  'updateUsersPermissionsRole',
  'deleteUsersPermissionsRole',
  'createUsersPermissionsUser',
  'updateUsersPermissionsUser',
  'deleteUsersPermissionsUser',
  'login',
  'register',
  'forgotPassword',
  'resetPassword',
  'changePassword',
  'emailConfirmation',
];

export function usersPermissionsMutations(registry: Registry): Record<string, RootField> {
  const fields = mutationFields(registry);
  return Object.fromEntries(MUTATION_ORDER.flatMap((name) => (fields[name] ? [[name, fields[name]] as const] : [])));
}

function mutationFields(registry: Registry): Record<string, RootField> {
  const user = registry.contentType(USER_UID);
  const answer = (info: Parameters<RootField['resolve']>[3], ctx: GraphQLContext) =>
    user ? selectionQuery(info, registry, user, ctx) : {};
  return {
    changePassword: {
      description: 'Change user password. Confirm with the current password.',
      type: 'UsersPermissionsLoginPayload',
      args: { currentPassword: 'String!', password: 'String!', passwordConfirmation: 'String!' },
      action: 'plugin::users-permissions.auth.changePassword',
      resolve: (_p, args, ctx) => session(changePassword(runtime(ctx), ctx.auth, plain(args))),
    },
    createUsersPermissionsRole: {
      description: 'Create a new role',
      type: 'UsersPermissionsCreateRolePayload',
      args: { data: 'UsersPermissionsRoleInput!' },
      action: 'plugin::users-permissions.role.createRole',
      // the REST controller's checks (Strapi's resolver runs that controller)
      resolve: async (_p, args, ctx) => {
        const given = Object.entries(plain(args.data) as Args).filter(
          ([key, value]) => ['name', 'description', 'type'].includes(key) && value !== undefined,
        );
        await createCheckedRole(ctx.service, Object.fromEntries(given), []);
        return ok;
      },
    },
    createUsersPermissionsUser: {
      description: 'Create a new user',
      type: 'UsersPermissionsUserEntityResponse!',
      args: { data: 'UsersPermissionsUserInput!' },
      action: 'plugin::users-permissions.user.create',
      // Strapi runs the REST controller (POST /api/users): its checks, its default role rules
      resolve: async (_p, args, ctx, info) => {
        const user = await createUserByRequest(operationContext(ctx), plain(args.data));
        return operations.findWritten(operationContext(ctx), USER_UID, String(user.id), answer(info, ctx));
      },
    },
    deleteUsersPermissionsRole: {
      description: 'Delete an existing role',
      type: 'UsersPermissionsDeleteRolePayload',
      args: { id: 'ID!' },
      action: 'plugin::users-permissions.role.deleteRole',
      resolve: async (_p, args, ctx) => {
        await deleteRoleOfUsers(ctx.service, await requireRole(ctx.service, String(args.id)));
        return ok;
      },
    },
    deleteUsersPermissionsUser: {
      description: 'Delete an existing user',
      type: 'UsersPermissionsUserEntityResponse!',
      args: { id: 'ID!' },
      action: 'plugin::users-permissions.user.destroy',
      // an unknown id is `data: null`, as Strapi's GraphQL answers it
      resolve: (_p, args, ctx, info) =>
        orNull(operations.remove(operationContext(ctx), USER_UID, String(args.id), answer(info, ctx))),
    },
    emailConfirmation: {
      description: 'Confirm an email users email address',
      type: 'UsersPermissionsLoginPayload',
      args: { confirmation: 'String!' },
      action: null,
      resolve: (_p, args, ctx) => session(confirmEmailSession(runtime(ctx), plain(args))),
    },
    forgotPassword: {
      description: 'Request a reset password token',
      type: 'UsersPermissionsPasswordPayload',
      args: { email: 'String!' },
      action: null,
      resolve: async (_p, args, ctx) => forgotPassword(runtime(ctx), plain(args)),
    },
    login: {
      type: 'UsersPermissionsLoginPayload!',
      args: { input: 'UsersPermissionsLoginInput!' },
      action: null,
      resolve: async (_p, args, ctx) => {
        const input = plain(args.input);
        const provider = isRecord(input) && typeof input.provider === 'string' ? input.provider : 'local';
        const grant = await enabledProvider(runtime(ctx), provider);
        // Strapi's resolver runs the REST callback, whose provider sign-in reads a query a mutation has not
        if (provider !== 'local') return session(providerSession(runtime(ctx), provider, {}, grant));
        return session(login(runtime(ctx), input));
      },
    },
    register: {
      description: 'Register a user',
      type: 'UsersPermissionsLoginPayload!',
      args: { input: 'UsersPermissionsRegisterInput!' },
      action: null,
      resolve: (_p, args, ctx) => session(register(runtime(ctx), plain(args.input), operationContext(ctx))),
    },
    resetPassword: {
      description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
      type: 'UsersPermissionsLoginPayload',
      args: { password: 'String!', passwordConfirmation: 'String!', code: 'String!' },
      action: null,
      resolve: (_p, args, ctx) => session(resetPassword(runtime(ctx), plain(args))),
    },
    updateUsersPermissionsRole: {
      description: 'Update an existing role',
      type: 'UsersPermissionsUpdateRolePayload',
      args: { id: 'ID!', data: 'UsersPermissionsRoleInput!' },
      action: 'plugin::users-permissions.role.updateRole',
      resolve: async (_p, args, ctx) => {
        const data = plain(args.data) as Args;
        const role = await requireRole(ctx.service, String(args.id));
        const given = Object.entries(data).filter(([key]) => key === 'name' || key === 'description');
        await changeCheckedRole(ctx.service, role._id, Object.fromEntries(given));
        return ok;
      },
    },
    updateUsersPermissionsUser: {
      description: 'Update an existing user',
      type: 'UsersPermissionsUserEntityResponse!',
      args: { id: 'ID!', data: 'UsersPermissionsUserInput!' },
      action: 'plugin::users-permissions.user.update',
      // Strapi runs the REST controller (PUT /api/users/:id): its checks, its writes
      resolve: async (_p, args, ctx, info) => {
        const user = await updateUserByRequest(ctx.service, userId(String(args.id)), plain(args.data));
        return operations.findWritten(operationContext(ctx), USER_UID, String(user._id), answer(info, ctx));
      },
    },
  };
}
