import { createHmac, randomBytes } from 'node:crypto';
import { apiTokenAbility, isApiTokenType, type ApiTokenType } from '../../access/abilities.js';
import type { RequestAuth } from '../../access/ability.js';
import { API_TOKEN_UID } from '../../content-types/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { nextId } from './roles.js';
import { collectionOf } from './collections.js';
import { CredentialCache } from './token-cache.js';
import { isDuplicate } from './indexes.js';
import {
  dropTokenActions,
  grantTokenActions,
  tokenActions,
  tokensActions,
  withTokenLease,
} from './api-token-permissions.js';

export interface CreateApiTokenInput {
  name: string;
  type: ApiTokenType;
  description?: string;
  /** custom tokens: the actions granted, e.g. `api::article.article.find` */
  actions?: string[];
  /** expiry in days from now; absent = never expires */
  days?: number;
}

export interface ApiTokenInfo {
  id: number;
  name: string;
  description: string | null;
  type: ApiTokenType;
  actions: string[];
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date | null;
}

interface ApiTokenDoc {
  _id: number;
  name: string;
  description?: string | null;
  type: string;
  accessKey: string;
  lastUsedAt?: Date | null;
  expiresAt?: Date | null;
  createdAt?: Date;
}

/** Only this HMAC-SHA512 of a key is stored (Strapi v4: salt from `API_TOKEN_SALT`). */
export function hashAccessKey(accessKey: string, salt: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

/** A token as the service uses it; `actions`: its permissions' (those of a custom token only count). */
function info(doc: ApiTokenDoc, actions: string[]): ApiTokenInfo {
  return {
    id: doc._id,
    name: doc.name,
    description: doc.description ?? null,
    type: isApiTokenType(doc.type) ? doc.type : 'custom',
    actions,
    lastUsedAt: doc.lastUsedAt ?? null,
    expiresAt: doc.expiresAt ?? null,
    createdAt: doc.createdAt ?? null,
  };
}

function validate(input: CreateApiTokenInput): void {
  if (typeof input.name !== 'string' || input.name.trim() === '')
    throw ValidationError.forPath(['name'], 'name is a required field');
  if (!isApiTokenType(input.type))
    throw ValidationError.forPath(['type'], 'type must be one of the following values: read-only, full-access, custom');
  // as Strapi: a custom token needs its list of actions (an empty one makes a token that can do nothing)
  if (input.type === 'custom' && !Array.isArray(input.actions))
    throw ValidationError.forPath(['permissions'], 'Missing permissions attribute for custom token');
  if (input.actions?.some((a) => typeof a !== 'string' || !/^[\w:.-]+\.[\w-]+$/.test(a)))
    throw ValidationError.forPath(['permissions'], 'actions must look like api::article.article.find');
  if (input.days !== undefined && (!Number.isFinite(input.days) || input.days <= 0))
    throw ValidationError.forPath(['lifespan'], 'days must be a positive number');
}

/** Creates a token; the access key is returned here once and never stored in clear. */
export async function createApiTokenWithSalt(
  ctx: ServiceContext,
  salt: string,
  input: CreateApiTokenInput,
): Promise<{ id: number; accessKey: string; token: ApiTokenInfo }> {
  validate(input);
  const model = ctx.models.model(API_TOKEN_UID);
  if (await model.exists({ name: input.name.trim() })) throw ValidationError.forPath(['name'], 'Name already taken');
  const accessKey = randomBytes(128).toString('hex');
  const lifespan = input.days !== undefined ? Math.round(input.days * 86_400_000) : null;
  const doc = await model
    .create({
      _id: await nextId(ctx, API_TOKEN_UID),
      name: input.name.trim(),
      description: input.description ?? '',
      type: input.type,
      accessKey: hashAccessKey(accessKey, salt),
      lastUsedAt: null,
      expiresAt: lifespan !== null ? new Date(Date.now() + lifespan) : null,
      lifespan,
    })
    .catch((error: unknown) => {
      // a token of this name was created meanwhile (unique `name`)
      throw isDuplicate(error, 'name') ? ValidationError.forPath(['name'], 'Name already taken') : error;
    });
  const id = doc._id as number;
  const actions = input.type === 'custom' ? [...new Set(input.actions)] : [];
  await grantTokenActions(ctx, id, actions);
  await ctx.credentials.changed();
  return { id, accessKey, token: info(doc.toObject() as unknown as ApiTokenDoc, actions) };
}

export async function listApiTokens(ctx: ServiceContext): Promise<ApiTokenInfo[]> {
  const docs = (await ctx.models.model(API_TOKEN_UID).find({}).sort({ _id: 1 }).lean()) as unknown as ApiTokenDoc[];
  const actions = await tokensActions(
    ctx,
    docs.filter((doc) => doc.type === 'custom').map((doc) => doc._id),
  );
  return docs.map((doc) => info(doc, actions.get(doc._id) ?? []));
}

/**
 * Deletes a token and its permissions; false when there is none with this id. Requests of this
 * process no longer pass with it.
 */
export async function revokeApiToken(ctx: ServiceContext, id: number): Promise<boolean> {
  // under the token's lease: a replacement of its permissions under way would add some back after the drop
  const revoked = await withTokenLease(ctx, id, async () => {
    const result = await collectionOf(ctx, API_TOKEN_UID).deleteOne({ _id: id });
    await dropTokenActions(ctx, id);
    return result.deletedCount === 1;
  }).catch((error: unknown) => {
    if (error instanceof NotFoundError) return false;
    throw error;
  });
  await ctx.credentials.changed();
  return revoked;
}

/** A new access key for the token (answered once; the old one no longer passes); null when there is no such token. */
export async function regenerateApiToken(ctx: ServiceContext, salt: string, id: number): Promise<string | null> {
  const accessKey = randomBytes(128).toString('hex');
  const result = await collectionOf(ctx, API_TOKEN_UID).updateOne(
    { _id: id },
    { $set: { accessKey: hashAccessKey(accessKey, salt), updatedAt: new Date() } },
  );
  await ctx.credentials.changed();
  return result.matchedCount === 1 ? accessKey : null;
}

/** Looked-up tokens by key hash, one cache per service (keyed by its models). */
const caches = new WeakMap<object, CredentialCache<ApiTokenInfo>>();

export function tokenCache(ctx: ServiceContext): CredentialCache<ApiTokenInfo> {
  let cache = caches.get(ctx.models);
  if (!cache) {
    cache = new CredentialCache<ApiTokenInfo>(ctx.credentials);
    caches.set(ctx.models, cache);
  }
  return cache;
}

const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiTokenCheck = { ok: true; auth: RequestAuth } | { ok: false; reason: 'unknown' | 'expired' };

/**
 * Looks an access key up by its hash (an index lookup: nothing is compared in clear, so nothing
 * leaks through timing; then from the token cache, see token-cache.ts), checks expiry and records
 * `lastUsedAt` (at most once a minute).
 */
export async function authenticateApiToken(
  ctx: ServiceContext,
  salt: string,
  accessKey: string,
): Promise<ApiTokenCheck> {
  const collection = collectionOf<ApiTokenDoc>(ctx, API_TOKEN_UID);
  const hash = hashAccessKey(accessKey, salt);
  const cache = tokenCache(ctx);
  const stamp = ctx.credentials.stamp;
  let token = cache.get(hash);
  if (!token) {
    const doc = (await collection.findOne({ accessKey: hash })) as ApiTokenDoc | null;
    if (!doc) return { ok: false, reason: 'unknown' };
    token = info(doc, doc.type === 'custom' ? await tokenActions(ctx, doc._id) : []);
    cache.set(hash, token, stamp);
  }
  const now = Date.now();
  if (token.expiresAt && token.expiresAt.getTime() <= now) return { ok: false, reason: 'expired' };
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    token.lastUsedAt = new Date(now);
    await collection.updateOne({ _id: token.id }, { $set: { lastUsedAt: token.lastUsedAt } });
  }
  return {
    ok: true,
    auth: {
      strategy: 'api-token',
      ability: apiTokenAbility(token.type, token.actions),
      token: { id: token.id, type: token.type },
    },
  };
}
