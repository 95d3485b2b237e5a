// Unique indexes behind the plugin's check-then-write paths that its Strapi schemas do not mark
// `unique` (an e-mail is one account; an action is granted to a role or an API token once), so parallel requests
// cannot both pass the check.
import { API_TOKEN_PERMISSION_UID, PERMISSION_UID, USER_UID } from '../../content-types/index.js';
import { ValidationError, type ValidationIssue } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { advancedSettings } from './advanced-settings.js';
import { collectionOf } from './collections.js';

const EMAIL_INDEX = 'email_unique';
const SHARED_EMAIL_INDEX = 'email_shared';
const INDEXES = [
  { uid: USER_UID, key: { email: 1 }, name: EMAIL_INDEX },
  { uid: PERMISSION_UID, key: { role: 1, action: 1 }, name: 'role_action_unique' },
  { uid: API_TOKEN_PERMISSION_UID, key: { token: 1, action: 1 }, name: 'token_action_unique' },
] as const;

/**
 * Creates the indexes; a database that already holds duplicates keeps working without one (logged).
 * With the advanced setting `unique_email` off, the e-mail index is a plain one.
 */
export async function ensureUniqueIndexes(ctx: ServiceContext): Promise<void> {
  const uniqueEmail = (await advancedSettings(ctx)).unique_email;
  for (const { uid, key, name } of INDEXES) {
    if (name === EMAIL_INDEX && !uniqueEmail) {
      await allowSharedEmails(ctx);
      continue;
    }
    // the plain index of a start with `unique_email` off has the same key
    if (name === EMAIL_INDEX)
      await collectionOf(ctx, uid)
        .dropIndex(SHARED_EMAIL_INDEX)
        .catch(() => undefined);
    await collectionOf(ctx, uid)
      .createIndex({ ...key }, { unique: true, sparse: true, name })
      .catch((error: { code?: unknown; message?: unknown }) => {
        if (error?.code !== 11000) throw error;
        ctx.logger.warn({ index: name, error: String(error.message) }, 'duplicates stored: unique index not created');
      });
  }
}

/** The services whose e-mail index is already a plain one. */
const sharedEmails = new WeakSet<object>();

/**
 * Makes the users' e-mail index a plain one (`unique_email` off: several users may share an
 * address, as in Strapi), once per service: the unique index goes, a plain index on the same key
 * (named `email_shared`) serves the look-ups.
 */
export async function allowSharedEmails(ctx: ServiceContext): Promise<void> {
  if (sharedEmails.has(ctx.models)) return;
  const users = collectionOf(ctx, USER_UID);
  const indexes = await users
    .listIndexes()
    .toArray()
    .catch(() => []);
  if (indexes.some((index) => index.name === EMAIL_INDEX)) await users.dropIndex(EMAIL_INDEX);
  await users.createIndex({ email: 1 }, { name: SHARED_EMAIL_INDEX });
  sharedEmails.add(ctx.models);
}

/** Whether a write failed on a unique index over `field`. */
export function isDuplicate(error: unknown, field: string): boolean {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 11000) return false;
  const pattern = (error as { keyPattern?: Record<string, unknown> }).keyPattern;
  return pattern !== undefined && field in pattern;
}

/**
 * The username or e-mail a write refused as taken: a unique index's error, or the write path's
 * unique-value error (`This attribute must be unique` on that attribute). null for anything else.
 */
export function takenField(error: unknown): 'username' | 'email' | null {
  for (const field of ['username', 'email'] as const) if (isDuplicate(error, field)) return field;
  if (!(error instanceof ValidationError)) return null;
  const issues = Array.isArray(error.details.errors) ? (error.details.errors as ValidationIssue[]) : [];
  const unique = issues.find((i) => i.message === 'This attribute must be unique');
  const field = unique?.path[0];
  return field === 'username' || field === 'email' ? field : null;
}
