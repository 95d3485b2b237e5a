import { ValidationError } from '../../errors/index.js';
import type { PublicationState } from '../read-tree.js';

/** `publicationState`: `live` (default) or `preview`; anything else is a 400 (Strapi: a 500). */
export function parsePublicationState(raw: unknown, fallback: PublicationState = 'live'): PublicationState {
  // a key without a value (`?publicationState`) is not given
  if (raw === undefined || raw === null) return fallback;
  if (raw === 'live' || raw === 'preview') return raw;
  throw new ValidationError('Invalid parameter publicationState: expected live or preview', {});
}

/**
 * The state a value asks for without refusing a bad one (read as `live`), for the checks that
 * come before `parsePublicationState` refuses it (Strapi's validator, then its database layer).
 */
export function askedPublicationState(raw: unknown): PublicationState {
  return raw === 'preview' ? 'preview' : 'live';
}

/** The `$match` condition a publication state puts on a Draft & Publish type ({} otherwise). */
export function publicationMatch(draftAndPublish: boolean, state: PublicationState): Record<string, unknown> {
  return draftAndPublish && state === 'live' ? { publishedAt: { $ne: null } } : {};
}
