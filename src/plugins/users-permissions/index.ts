import type { RequestHandler } from 'express';
import type { ServiceContext } from '../../service-context.js';
import { API_TOKEN_PERMISSION_UID, API_TOKEN_UID, PERMISSION_UID, ROLE_UID } from '../../content-types/uids.js';
import type { Plugin } from '../types.js';
import { migrateStoredTokenActions } from './api-token-permissions.js';
import { createApiTokenWithSalt, listApiTokens, revokeApiToken, type CreateApiTokenInput } from './api-tokens.js';
import { createAuthenticator } from './authenticator.js';
import { usersPermissionsContentTypes } from './content-types.js';
import { JwtVerifier } from './jwt.js';
import { PermissionCache } from './permission-cache.js';
import { ensureUniqueIndexes } from './indexes.js';
import { configuredRateLimit, rateLimit } from './rate-limit.js';
import { seedRoles } from './roles.js';
import { authRoutes } from './routes/auth.js';
import { roleRoutes } from './routes/roles.js';
import { userRoutes } from './routes/users.js';
import type { UsersPermissionsRuntime } from './runtime.js';
import { ADVANCED_STORE_DEFAULTS } from './advanced-settings.js';
import { AUTH_MAILS_STORE_DEFAULTS } from './auth-mails.js';
import { createJwtService } from './jwt-service.js';
import { checkProductionSecrets, resolveSecrets } from './secrets.js';
import { usersPermissionsSettings } from './settings.js';
import { userSchemaAdditions } from './user-fields.js';
import { initGrantSettings } from './providers/grant-settings.js';
import { createProvidersRegistry, joinUrl } from './providers/registry.js';

export type { ApiTokenInfo, CreateApiTokenInput } from './api-tokens.js';
export {
  changePassword,
  confirmEmailSession,
  forgotPassword,
  login,
  providerSession,
  register,
  resetPassword,
  type AuthSession,
} from './auth-operations.js';
export { enabledProvider } from './providers/grant-settings.js';
export type { UsersPermissionsRuntime } from './runtime.js';

/** The plugin's runtime of a running service (for the GraphQL register/login mutations), keyed by its models. */
const runtimes = new WeakMap<object, UsersPermissionsRuntime>();
export function usersPermissionsRuntime(ctx: ServiceContext): UsersPermissionsRuntime | undefined {
  return runtimes.get(ctx.models);
}
export { issueJwt } from './jwt.js';
export { builtInStrategyFor } from './authenticator.js';
export { sendConfirmationEmail } from './auth-operations.js';
export { createRoleService, type RoleService } from './role-service.js';
export { createApiTokenService, type ApiTokenService } from './api-token-service.js';
export { createUserByRequest } from './user-create.js';
export { updateUserByRequest, userId } from './user-update.js';

const passOn: RequestHandler = (_req, _res, next) => next();

async function salt(ctx: ServiceContext): Promise<string> {
  const settings = usersPermissionsSettings(ctx.config);
  return (await resolveSecrets(ctx.config, settings.jwtSecret)).apiTokenSalt;
}

/** Creates an API token (programmatic API, CLI); the access key is only returned here. */
export async function createApiToken(
  ctx: ServiceContext,
  input: CreateApiTokenInput,
): Promise<{ id: number; accessKey: string }> {
  const { id, accessKey } = await createApiTokenWithSalt(ctx, await salt(ctx), input);
  return { id, accessKey };
}

export { listApiTokens, revokeApiToken };

/**
 * users-permissions: users, roles and permissions, JWT login, API tokens, and the authenticator
 * that turns every `/api` request into a `RequestAuth`.
 */
export const usersPermissionsPlugin: Plugin = {
  name: 'users-permissions',
  checkConfig(config) {
    checkProductionSecrets(config, usersPermissionsSettings(config).jwtSecret);
  },
  contentTypes: () => usersPermissionsContentTypes(),
  async register(ctx) {
    const settings = usersPermissionsSettings(ctx.config);
    const secrets = await resolveSecrets(ctx.config, settings.jwtSecret);
    const jwt = new JwtVerifier(secrets.jwtSecret);
    const permissions = new PermissionCache(ctx);
    // what app code writes to these (the entity service, `strapi.db.query`) moves the epoch too
    ctx.credentials.cacheContentsOf([ROLE_UID, PERMISSION_UID, API_TOKEN_UID, API_TOKEN_PERMISSION_UID]);
    // Strapi's defaults point each provider's front-end redirect at `<server.url>/<prefix>/auth`
    const providers = createProvidersRegistry(joinUrl(ctx.config.server.url ?? '', ctx.config.api.rest.prefix, 'auth'));
    const runtime: UsersPermissionsRuntime = { ctx, settings, secrets, jwt, providers };
    runtimes.set(ctx.models, runtime);
    ctx.setAuthenticator(createAuthenticator(ctx, { jwt, apiTokenSalt: secrets.apiTokenSalt, permissions }));
    ctx.setService('jwt', createJwtService(secrets.jwtSecret, settings.jwt.expiresIn));
    ctx.setService('providers-registry', providers);
    // Strapi's order: auth, user, role, permissions
    const limiter = (config: Record<string, unknown>) =>
      settings.ratelimit.enabled ? rateLimit(configuredRateLimit(settings.ratelimit, config)) : passOn;
    ctx.serveRoutes([...authRoutes(runtime), ...userRoutes(runtime), ...roleRoutes(runtime)], {
      rateLimit: { handler: limiter({}), withConfig: limiter },
    });
  },
  // Strapi's default config reads JWT_SECRET, and its bootstrap sets a generated secret there
  appConfig(ctx) {
    const given = ctx.config.plugins['users-permissions']?.config ?? {};
    const runtime = usersPermissionsRuntime(ctx);
    return {
      ...given,
      jwtSecret: runtime?.secrets.jwtSecret ?? given.jwtSecret,
      jwt: { ...(given.jwt as object | undefined), expiresIn: usersPermissionsSettings(ctx.config).jwt.expiresIn },
    };
  },
  async bootstrap(ctx) {
    await ensureUniqueIndexes(ctx);
    await migrateStoredTokenActions(ctx);
    await seedRoles(ctx);
    const runtime = usersPermissionsRuntime(ctx);
    if (runtime) await initGrantSettings(ctx, runtime.providers, runtime.settings.providers);
    if (usersPermissionsSettings(ctx.config).allowedFields === undefined) {
      const [user] = usersPermissionsContentTypes();
      const added = userSchemaAdditions(ctx, Object.keys(user?.schema.attributes ?? {}));
      // Strapi 4.26's words: without the setting, register takes these from any client
      if (added.length > 0)
        ctx.logger.warn(
          `Users-permissions registration has defaulted to accepting the following additional user fields during registration: ${added.join(',')}`,
        );
    }
  },
};
export { CORE_STORE_COLLECTION } from './advanced-settings.js';

/** What the core store answers for the plugin's keys nobody wrote yet (Strapi writes these at its first start). */
export const CORE_STORE_DEFAULTS: Readonly<Record<string, unknown>> = {
  ...ADVANCED_STORE_DEFAULTS,
  ...AUTH_MAILS_STORE_DEFAULTS,
};
