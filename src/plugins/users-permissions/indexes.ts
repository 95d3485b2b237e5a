// Unique indexes behind the plugin's check-then-write paths that its Strapi schemas do not mark
// `unique` (an e-mail is one account; an action is granted to a role once), so parallel requests
// cannot both pass the check.
import { PERMISSION_UID, USER_UID } from '../../content-types/index.js';
import { ValidationError, type ValidationIssue } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { collectionOf } from './collections.js';

const INDEXES = [
  { uid: USER_UID, key: { email: 1 }, name: 'email_unique' },
  { uid: PERMISSION_UID, key: { role: 1, action: 1 }, name: 'role_action_unique' },
] as const;

/** Creates the indexes; a database that already holds duplicates keeps working without one (logged). */
export async function ensureUniqueIndexes(ctx: ServiceContext): Promise<void> {
  for (const { uid, key, name } of INDEXES) {
    await collectionOf(ctx, uid)
      .createIndex({ ...key }, { unique: true, sparse: true, name })
      .catch((error: { code?: unknown; message?: unknown }) => {
        if (error?.code !== 11000) throw error;
        ctx.logger.warn({ index: name, error: String(error.message) }, 'duplicates stored: unique index not created');
      });
  }
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
