/**
 * Signing in through a provider (`GET /auth/<provider>/callback?access_token=...`), as Strapi
 * 4.26's `providers` service `connect`: the provider's `authCallback` reads the profile with the
 * token, then the user of that e-mail and provider signs in, or one is created (confirmed, with
 * the default role) when registration is open and no other provider's user has the address.
 */
import { USER_UID } from '../../../content-types/index.js';
import { createEntry, writableContentType } from '../../../write/index.js';
import { advancedSettings } from '../advanced-settings.js';
import { collectionOf } from '../collections.js';
import { findRole } from '../roles.js';
import { findUserById, type UserDoc } from '../users.js';
import type { UsersPermissionsRuntime } from '../runtime.js';
import { field } from './profile-request.js';
import type { GrantSettings } from './grant-settings.js';

/** Strapi reads the token under any of these names (OAuth 2, a code, OAuth 1). */
function accessTokenOf(query: unknown): unknown {
  return field(query, 'access_token') || field(query, 'code') || field(query, 'oauth_token');
}

/**
 * The user signed in with `provider`; a plain `Error` with Strapi's message otherwise (the route
 * answers it as an ApplicationError, as Strapi's controller does).
 */
export async function providerUser(
  rt: UsersPermissionsRuntime,
  provider: string,
  query: unknown,
  grant: GrantSettings,
): Promise<UserDoc> {
  const { ctx } = rt;
  const accessToken = accessTokenOf(query);
  if (!accessToken) throw new Error('No access_token.');
  const profile = await rt.providers.run({ provider, query, accessToken, providers: grant });
  const given = field(profile, 'email');
  const email = typeof given === 'string' ? given.toLowerCase() : given == null ? '' : String(given).toLowerCase();
  if (!email) throw new Error('Email was not available.');

  const users = await collectionOf<UserDoc>(ctx, USER_UID).find({ email }).toArray();
  const advanced = await advancedSettings(ctx);
  const own = users.find((user) => user.provider === provider);
  if (!own && !advanced.allow_register) throw new Error('Register action is actually not available.');
  if (own) return own;
  if (users.length > 0 && advanced.unique_email) throw new Error('Email is already taken.');

  const role = await findRole(ctx, { type: advanced.default_role });
  if (!role) throw new Error('Impossible to find the default role');
  // Strapi stores the whole profile; here the user type's attributes of it
  const attributes = ctx.registry.contentType(USER_UID)?.attributes ?? {};
  const fromProfile = Object.fromEntries(
    Object.entries(typeof profile === 'object' && profile !== null ? profile : {}).filter(
      ([name]) => Object.hasOwn(attributes, name) && name !== 'role',
    ),
  );
  // Strapi creates it with its query engine: no entity validation (a provider's two-letter login
  // is taken), no webhook event
  const id = await createEntry({ ...ctx, queryEngine: true }, writableContentType(ctx, USER_UID), {
    ...fromProfile,
    email,
    provider,
    role: role._id,
    confirmed: true,
  });
  const user = await findUserById(ctx, id);
  if (!user) throw new Error('User not found');
  return user;
}
