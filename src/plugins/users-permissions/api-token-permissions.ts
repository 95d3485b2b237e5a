/**
 * A custom API token's actions, stored as Strapi 4.26 stores them: one `admin::api-token-permission`
 * entry per action whose `token` relation names the token (so `populate: ['permissions']` on a
 * token finds them). Tokens stored before that kept their actions in an `actions` array on the
 * token itself: `migrateStoredTokenActions` moves them at start-up.
 */
import { API_TOKEN_PERMISSION_UID, API_TOKEN_UID } from '../../content-types/index.js';
import { NotFoundError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { withLease } from '../../write/index.js';
import { collectionOf } from './collections.js';
import { isDuplicate } from './indexes.js';
import { nextId } from './roles.js';

interface PermissionDoc {
  _id: number;
  action: string;
  token?: number | null;
}

/** The actions of each of these tokens, in the order they were granted (one command). */
export async function tokensActions(ctx: ServiceContext, tokenIds: readonly number[]): Promise<Map<number, string[]>> {
  const byToken = new Map<number, string[]>(tokenIds.map((id) => [id, []]));
  if (tokenIds.length === 0) return byToken;
  const docs = await collectionOf<PermissionDoc>(ctx, API_TOKEN_PERMISSION_UID)
    .find({ token: { $in: [...tokenIds] } }, { projection: { action: 1, token: 1 } })
    .sort({ _id: 1 })
    .toArray();
  for (const doc of docs) {
    const actions = typeof doc.token === 'number' ? byToken.get(doc.token) : undefined;
    if (actions && typeof doc.action === 'string' && !actions.includes(doc.action)) actions.push(doc.action);
  }
  return byToken;
}

export async function tokenActions(ctx: ServiceContext, tokenId: number): Promise<string[]> {
  return (await tokensActions(ctx, [tokenId])).get(tokenId) ?? [];
}

/** Adds the actions the token does not have yet; a parallel grant of the same one keeps one (unique index). */
export async function grantTokenActions(ctx: ServiceContext, tokenId: number, actions: readonly string[]) {
  const existing = new Set(await tokenActions(ctx, tokenId));
  for (const action of new Set(actions)) {
    if (existing.has(action)) continue;
    await ctx.models
      .model(API_TOKEN_PERMISSION_UID)
      .create({ _id: await nextId(ctx, API_TOKEN_PERMISSION_UID), action, token: tokenId })
      .catch((error: unknown) => {
        if (!isDuplicate(error, 'action')) throw error;
      });
  }
}

/**
 * Makes the token's actions exactly these. Under the token's lease: two replacements interleaved
 * (each deleting what it does not want, then adding what it wants) would leave their union.
 * A token deleted meanwhile is a 404.
 */
export async function setTokenActions(ctx: ServiceContext, tokenId: number, actions: readonly string[]) {
  await withTokenLease(ctx, tokenId, async () => {
    await collectionOf(ctx, API_TOKEN_PERMISSION_UID).deleteMany({ token: tokenId, action: { $nin: [...actions] } });
    await grantTokenActions(ctx, tokenId, actions);
  });
  await ctx.credentials.changed();
}

/** Runs `work` holding the token's lease (src/write/lease.ts); a token that is not there is a 404. */
export function withTokenLease<T>(ctx: ServiceContext, tokenId: number, work: () => Promise<T>): Promise<T> {
  return withLease(ctx.models, API_TOKEN_UID, tokenId, () => new NotFoundError('Token not found'), work);
}

export async function dropTokenActions(ctx: ServiceContext, tokenId: number): Promise<void> {
  await collectionOf(ctx, API_TOKEN_PERMISSION_UID).deleteMany({ token: tokenId });
}

/**
 * Tokens stored with an `actions` array (before the permissions relation): their actions become
 * permission entries, then the array goes. Idempotent and safe with several instances starting at
 * once (a grant is additive and unique per token and action; the array goes only once granted).
 */
export async function migrateStoredTokenActions(ctx: ServiceContext): Promise<number> {
  const tokens = collectionOf<{ _id: number; actions?: unknown }>(ctx, API_TOKEN_UID);
  const stored = await tokens.find({ actions: { $exists: true } }, { projection: { actions: 1 } }).toArray();
  for (const token of stored) {
    const actions = Array.isArray(token.actions)
      ? token.actions.filter((action): action is string => typeof action === 'string')
      : [];
    await grantTokenActions(ctx, token._id, actions);
    await tokens.updateOne({ _id: token._id }, { $unset: { actions: '' } });
  }
  return stored.length;
}
