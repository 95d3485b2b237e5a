// The user pass's credential: a user signed up as a front-end does (`/api/auth/local/register`, or,
// when the project closes or changes registration, created directly and signed in through
// `/api/auth/local`), and the permissions its role holds in the project's database.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { USER_ACTIONS } from '../../src/access/actions.js';
import { USER_UID } from '../../src/content-types/index.js';
import type { ServiceContext } from '../../src/service-context.js';
import { advancedSettings } from '../../src/plugins/users-permissions/advanced-settings.js';
import { findRole, grantActions, roleActions } from '../../src/plugins/users-permissions/roles.js';
import { createUser, findUserById } from '../../src/plugins/users-permissions/users.js';
import { fill } from './samples.js';
import type { Trial } from './trial.js';

const PASSWORD = 'Password123';
/** The user's own attributes: register sets them; the app's additions are filled like any entry's. */
const USER_CORE = new Set([
  'username',
  'email',
  'provider',
  'password',
  'resetPasswordToken',
  'confirmationToken',
  'confirmed',
  'blocked',
  'role',
]);

/** What the admin panel's "Users & Permissions" page offers per content-type. */
const CORE_ACTIONS = {
  collectionType: ['find', 'findOne', 'create', 'update', 'delete'],
  singleType: ['find', 'update', 'delete'],
} as const;

export interface SignedIn {
  jwt: string;
  roleId: number;
}

function message(body: Record<string, unknown>): string {
  const error = body.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : JSON.stringify(body).slice(0, 200);
}

/** A user made without the register route: confirmed, in the role register would give, the app's extra attributes filled. */
async function createDirectly(ctx: ServiceContext, username: string): Promise<void> {
  const { default_role } = await advancedSettings(ctx);
  const role = (await findRole(ctx, { type: default_role })) ?? (await findRole(ctx, { type: 'authenticated' }));
  if (!role) throw new Error('no authenticated role');
  const userType = ctx.registry.contentType(USER_UID);
  const extra = Object.fromEntries(
    Object.entries(userType ? fill(ctx.registry, userType, 1) : {}).filter(([name]) => !USER_CORE.has(name)),
  );
  await createUser(ctx, {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
    role: role._id,
    confirmed: true,
    extra,
  });
}

/**
 * Signs a new user up, counting the register and login requests in the pass; `notices` tells how
 * (registration closed, e-mail confirmation on, the project's own register refusing the bare fields).
 */
export async function signIn(trial: Trial, ctx: ServiceContext, notices: string[]): Promise<SignedIn | undefined> {
  const username = `try-project-${Date.now().toString(36)}`;
  const registered = await trial.send('POST', `${trial.api}/auth/local/register`, {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
  });
  let jwt = typeof registered.body.jwt === 'string' ? registered.body.jwt : undefined;
  if (registered.status >= 500 || jwt) trial.record('POST', `${trial.api}/auth/local/register`, registered);
  if (!jwt) {
    notices.push(
      registered.ok
        ? 'register answered no jwt (e-mail confirmation is on): the user is created confirmed and signs in'
        : `register answered ${registered.status} ${message(registered.body)}: the user is created directly and signs in`,
    );
    const direct = `${username}-direct`;
    try {
      await createDirectly(ctx, direct);
    } catch (err) {
      trial.outcome.failed.push(`creating the user directly: ${(err as Error).message}`);
      return undefined;
    }
    const login = await trial.send('POST', `${trial.api}/auth/local`, { identifier: direct, password: PASSWORD });
    trial.record('POST', `${trial.api}/auth/local`, login);
    jwt = typeof login.body.jwt === 'string' ? login.body.jwt : undefined;
  }
  const user = jwt ? await findUserById(ctx, idInJwt(jwt)) : null;
  if (!jwt || !user || typeof user.role !== 'number') return undefined;
  return { jwt, roleId: user.role };
}

function idInJwt(jwt: string): number {
  const [, payload = ''] = jwt.split('.');
  const { id } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { id?: unknown };
  return typeof id === 'number' ? id : NaN;
}

/** The permissions strapi-plugin-config-sync exported for a role (`config/sync/user-role.<type>.json`), if any. */
function configSyncActions(appDir: string, roleType: string): string[] | undefined {
  const file = join(appDir, 'config', 'sync', `user-role.${roleType}.json`);
  if (!existsSync(file)) return undefined;
  const role = JSON.parse(readFileSync(file, 'utf8')) as { permissions?: Array<{ action?: unknown }> };
  return (role.permissions ?? []).flatMap((p) => (typeof p.action === 'string' ? [p.action] : []));
}

/**
 * The role's permissions in the project's database, which the trial does not have: what the
 * bootstrap granted is there already; a config-sync export of the role is granted as its import
 * would; without one, every api content-type the role has no permission on gets the admin panel's
 * actions for it (find, findOne, create, update, delete), as an admin letting a front-end's users
 * work with it would tick them, and when one of them relates to users, reading users (find,
 * findOne: Strapi drops or refuses a relation to a type the caller may not read, the app's own
 * `filters: { author: ctx.state.user.id }` included). Answers the actions the role then grants.
 */
export async function grantRole(
  ctx: ServiceContext,
  appDir: string,
  roleId: number,
  notices: string[],
): Promise<Set<string>> {
  const role = await findRole(ctx, { _id: roleId });
  const exported = role ? configSyncActions(appDir, role.type) : undefined;
  if (exported) {
    await grantActions(ctx, roleId, exported);
    notices.push(`the ${role?.type} role's permissions of config/sync/user-role.${role?.type}.json are granted`);
  } else {
    const held = await roleActions(ctx, roleId);
    const bare = ctx.registry
      .listContentTypes()
      .filter((ct) => ct.namespace === 'api' && !held.some((action) => action.startsWith(`${ct.uid}.`)));
    const toUsers = bare.some((ct) => Object.values(ct.relations).some((relation) => relation.target === USER_UID));
    await grantActions(ctx, roleId, [
      ...bare.flatMap((ct) => CORE_ACTIONS[ct.kind].map((action) => `${ct.uid}.${action}`)),
      ...(toUsers ? [USER_ACTIONS.find, USER_ACTIONS.findOne] : []),
    ]);
    if (bare.length > 0)
      notices.push(
        `the ${role?.type ?? 'user'} role has no permission on ${bare.length} api content-type(s) in the project: ` +
          "granted find, findOne, create, update, delete on them (the admin panel's ticks)" +
          (toUsers ? ', and find, findOne on users, which they relate to' : ''),
      );
  }
  return new Set(await roleActions(ctx, roleId));
}
