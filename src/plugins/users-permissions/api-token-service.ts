/**
 * `strapi.service('admin::api-token')` of Strapi 4.26, as plugins and projects call it: `hash(key)`
 * (strapi-plugin-io looks a socket's token up by it with `strapi.query('admin::api-token')`),
 * `list`, `getById`, `getByName`, `exists`, `create` (answering the access key once), `revoke`.
 * On the service's own API tokens (the CLI's and the config's), with the same salt.
 */
import { ValidationError } from '../../errors/index.js';
import {
  createApiTokenWithSalt,
  hashAccessKey,
  listApiTokens,
  revokeApiToken,
  type ApiTokenInfo,
  type CreateApiTokenInput,
} from './api-tokens.js';
import type { UsersPermissionsRuntime } from './runtime.js';

export interface ApiTokenService {
  hash(accessKey: string): string;
  list(): Promise<ApiTokenInfo[]>;
  getById(id: number | string): Promise<ApiTokenInfo | null>;
  getByName(name: string): Promise<ApiTokenInfo | null>;
  exists(where?: { id?: number | string; name?: string }): Promise<boolean>;
  create(attributes: Record<string, unknown>): Promise<ApiTokenInfo & { accessKey: string }>;
  revoke(id: number | string): Promise<ApiTokenInfo | null>;
  checkSaltIsDefined(): void;
}

/** Strapi's create body (`lifespan` in ms, `permissions` a list of actions) as the token input. */
function tokenInput(attributes: Record<string, unknown>): CreateApiTokenInput {
  const { name, description, type, lifespan, permissions } = attributes;
  if (lifespan !== undefined && lifespan !== null && typeof lifespan !== 'number')
    throw ValidationError.forPath(['lifespan'], 'lifespan must be a number of milliseconds');
  return {
    name: String(name ?? ''),
    type: type as CreateApiTokenInput['type'],
    ...(typeof description === 'string' ? { description } : {}),
    ...(Array.isArray(permissions) ? { actions: permissions as string[] } : {}),
    ...(typeof lifespan === 'number' ? { days: lifespan / 86_400_000 } : {}),
  };
}

export function createApiTokenService(runtime: () => UsersPermissionsRuntime): ApiTokenService {
  const find = async (match: (token: ApiTokenInfo) => boolean) =>
    (await listApiTokens(runtime().ctx)).find(match) ?? null;
  return {
    hash: (accessKey) => hashAccessKey(accessKey, runtime().secrets.apiTokenSalt),
    list: () => listApiTokens(runtime().ctx),
    getById: (id) => find((token) => token.id === Number(id)),
    getByName: (name) => find((token) => token.name === name),
    async exists(where = {}) {
      const token = await find(
        (one) =>
          (where.id === undefined || one.id === Number(where.id)) &&
          (where.name === undefined || one.name === where.name),
      );
      return token !== null;
    },
    async create(attributes) {
      const rt = runtime();
      const { accessKey, token } = await createApiTokenWithSalt(
        rt.ctx,
        rt.secrets.apiTokenSalt,
        tokenInput(attributes),
      );
      return { ...token, accessKey };
    },
    async revoke(id) {
      const token = await find((one) => one.id === Number(id));
      if (token) await revokeApiToken(runtime().ctx, token.id);
      return token;
    },
    checkSaltIsDefined() {
      if (!runtime().secrets.apiTokenSalt) throw new Error('Missing apiToken.salt');
    },
  };
}
