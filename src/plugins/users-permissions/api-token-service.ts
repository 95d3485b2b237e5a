/**
 * `strapi.service('admin::api-token')` of Strapi 4.26, as plugins and projects call it: `hash(key)`
 * (strapi-plugin-io looks a socket's token up by it with `strapi.query('admin::api-token')`),
 * `list` (by name), `getBy(where)`, `getById`, `getByName`, `exists`, `create` (answering the
 * access key once), `update`, `regenerate`, `revoke`, `checkSaltIsDefined`. Tokens are read as
 * Strapi's service reads them, through the query engine with their permissions populated, and
 * answered with `permissions` as a list of actions; the writes go through api-tokens.ts, which
 * keeps the token cache of the service's authentication exact.
 */
import { isApiTokenType } from '../../access/abilities.js';
import { API_TOKEN_UID } from '../../content-types/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { PlainEntry } from '../../query/index.js';
import { setTokenActions } from './api-token-permissions.js';
import {
  createApiTokenWithSalt,
  hashAccessKey,
  regenerateApiToken,
  revokeApiToken,
  type CreateApiTokenInput,
} from './api-tokens.js';
import { collectionOf } from './collections.js';
import type { UsersPermissionsRuntime } from './runtime.js';

/** What the service reads tokens with: `strapi.db.query(uid)`'s find and delete. */
export interface TokenQuery {
  findOne(params: Record<string, unknown>): Promise<PlainEntry | null>;
  findMany(params: Record<string, unknown>): Promise<PlainEntry[]>;
}

type Token = PlainEntry & { permissions?: unknown };

export interface ApiTokenService {
  hash(accessKey: string): string;
  list(): Promise<Token[]>;
  getBy(where?: Record<string, unknown>): Promise<Token | null>;
  getById(id: number | string): Promise<Token | null>;
  getByName(name: string): Promise<Token | null>;
  exists(where?: Record<string, unknown>): Promise<boolean>;
  create(attributes: Record<string, unknown>): Promise<Token & { accessKey: string }>;
  update(id: number | string, attributes: Record<string, unknown>): Promise<Token>;
  regenerate(id: number | string): Promise<{ id: number; accessKey: string }>;
  revoke(id: number | string): Promise<Token | null>;
  checkSaltIsDefined(): void;
}

// Strapi 4.26's api-token service: what it selects and populates
const SELECT = ['id', 'name', 'description', 'lastUsedAt', 'type', 'lifespan', 'expiresAt', 'createdAt', 'updatedAt'];
const POPULATE = ['permissions'];
const DAY_MS = 86_400_000;
/** Strapi's API_TOKEN_LIFESPANS: unlimited, 7, 30 or 90 days */
const LIFESPANS = [7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS];

/** `permissions` as Strapi's service answers them: the actions of the populated entries. */
function flattened(token: Token | null): Token | null {
  if (!token || !Array.isArray(token.permissions)) return token;
  return { ...token, permissions: token.permissions.map((permission) => (permission as { action?: unknown }).action) };
}

/** Strapi's assertCustomTokenPermissionsValidity (the actions' form is checked by api-tokens.ts). */
function checkPermissions(type: unknown, permissions: unknown): void {
  const empty =
    permissions === undefined || permissions === null || (Array.isArray(permissions) && !permissions.length);
  if (type !== 'custom' && !empty) throw new ValidationError('Non-custom tokens should not reference permissions');
  if (type === 'custom' && !Array.isArray(permissions))
    throw new ValidationError('Missing permissions attribute for custom token');
  if (Array.isArray(permissions) && permissions.some((action) => typeof action !== 'string'))
    throw new ValidationError('Unknown permissions provided: permissions must be a list of actions');
}

/** Strapi's assertValidLifespan: null or one of its lifespans in milliseconds. */
function checkLifespan(lifespan: unknown): void {
  if (lifespan === undefined || lifespan === null) return;
  if (typeof lifespan !== 'number' || !LIFESPANS.includes(lifespan))
    throw new ValidationError(`lifespan must be one of the following values: 
      ${[null, ...LIFESPANS].join(', ')}`);
}

function tokenId(id: number | string): number {
  const number = Number(id);
  return Number.isSafeInteger(number) ? number : NaN;
}

/** The stored fields an update may set (Strapi's update writes what it is given, permissions apart). */
function updatedFields(attributes: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const { name, description, type, lifespan } = attributes;
  if (name !== undefined) {
    if (typeof name !== 'string' || name.trim() === '')
      throw ValidationError.forPath(['name'], 'name is a required field');
    fields.name = name.trim();
  }
  if (description !== undefined) {
    if (description !== null && typeof description !== 'string')
      throw ValidationError.forPath(['description'], 'description must be a `string` type');
    fields.description = description;
  }
  if (type !== undefined) {
    if (!isApiTokenType(type))
      throw ValidationError.forPath(
        ['type'],
        'type must be one of the following values: read-only, full-access, custom',
      );
    fields.type = type;
  }
  if (lifespan !== undefined) fields.lifespan = lifespan;
  return fields;
}

export function createApiTokenService(
  runtime: () => UsersPermissionsRuntime,
  query: () => TokenQuery,
): ApiTokenService {
  const getBy = async (where: Record<string, unknown> = {}) => {
    if (Object.keys(where).length === 0) return null;
    return flattened(await query().findOne({ select: SELECT, populate: POPULATE, where }));
  };
  const read = async (id: number) => (await getBy({ id })) as Token;
  return {
    hash: (accessKey) => hashAccessKey(accessKey, runtime().secrets.apiTokenSalt),
    async list() {
      const tokens = await query().findMany({ select: SELECT, populate: POPULATE, orderBy: { name: 'asc' } });
      return tokens.map((token) => flattened(token) as Token);
    },
    getBy,
    getById: (id) => getBy({ id: tokenId(id) }),
    getByName: (name) => getBy({ name }),
    exists: async (where = {}) => (await getBy(where)) !== null,
    async create(attributes) {
      const { name, description, type, lifespan, permissions } = attributes;
      checkPermissions(type, permissions);
      checkLifespan(lifespan);
      const rt = runtime();
      const input: CreateApiTokenInput = {
        name: typeof name === 'string' ? name : '',
        type: type as CreateApiTokenInput['type'],
        ...(typeof description === 'string' ? { description } : {}),
        ...(Array.isArray(permissions) ? { actions: permissions as string[] } : {}),
        ...(typeof lifespan === 'number' ? { days: lifespan / DAY_MS } : {}),
      };
      const { id, accessKey } = await createApiTokenWithSalt(rt.ctx, rt.secrets.apiTokenSalt, input);
      return { ...(await read(id)), accessKey };
    },
    async update(id, attributes) {
      const rt = runtime();
      const original = await getBy({ id: tokenId(id) });
      if (!original) throw new NotFoundError('Token not found');
      const { permissions } = attributes;
      const type = attributes.type ?? original.type;
      if (permissions !== undefined || (type === 'custom' && original.type !== 'custom'))
        checkPermissions(type, permissions ?? (original.type === 'custom' ? original.permissions : undefined));
      checkLifespan(attributes.lifespan);
      const fields = updatedFields(attributes);
      if (typeof fields.name === 'string' && fields.name !== original.name && (await getBy({ name: fields.name })))
        throw ValidationError.forPath(['name'], 'Name already taken');
      await collectionOf(rt.ctx, API_TOKEN_UID).updateOne(
        { _id: original.id },
        { $set: { ...fields, updatedAt: new Date() } },
      );
      // setTokenActions tells the caches of the whole change; without it, the fields' change is told here
      if (type !== 'custom') await setTokenActions(rt.ctx, original.id, []);
      else if (Array.isArray(permissions)) await setTokenActions(rt.ctx, original.id, permissions as string[]);
      else await rt.ctx.credentials.changed();
      return read(original.id);
    },
    async regenerate(id) {
      const rt = runtime();
      const accessKey = await regenerateApiToken(rt.ctx, rt.secrets.apiTokenSalt, tokenId(id));
      if (accessKey === null) throw new NotFoundError('The provided token id does not exist');
      return { id: tokenId(id), accessKey };
    },
    // Strapi answers the deleted token as read, its permissions populated (not flattened)
    async revoke(id) {
      const token = await query().findOne({ select: SELECT, populate: POPULATE, where: { id: tokenId(id) } });
      if (token) await revokeApiToken(runtime().ctx, token.id);
      return token;
    },
    checkSaltIsDefined() {
      if (!runtime().secrets.apiTokenSalt) throw new Error('Missing apiToken.salt');
    },
  };
}
