// Strapi v4 i18n keeps non-localized attributes equal across the localizations of a document
// (`syncNonLocalizedAttributes`): an update of one localization writes the same values to the
// others, and a new localization's values go to the others as it is created. Components are
// copied without their ids, so each localization gets its own.
import type { ContentType, Registry } from '../content-types/index.js';
import { ValidationError } from '../errors/index.js';
import type { Models } from '../models/index.js';
import { buildWrite, type WritePlan } from './build.js';
import { entries, type StoredEntry } from './collection.js';
import { isPlainObject, type WriteData } from './payload.js';

/** A sibling localization and the write that brings it in line. */
export interface SharedWrite {
  entry: StoredEntry;
  plan: WritePlan;
}

/** A component value as input for another entry: same values, no ids (so new components are made). */
export function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'id')
      .map(([key, v]) => [key, withoutIds(v)]),
  );
}

/** The part of `data` the other localizations share: non-localized, not relations, not unique. */
function sharedInput(contentType: ContentType, data: WriteData): WriteData {
  const shared: WriteData = {};
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (!(name in data) || attribute.pluginOptions?.i18n?.localized !== false) continue;
    if (attribute.type === 'relation' || attribute.type === 'media' || attribute.unique) continue;
    shared[name] =
      attribute.type === 'component' || attribute.type === 'dynamiczone' ? withoutIds(data[name]) : data[name];
  }
  return shared;
}

/** Whether a write of `data` changes what the localizations of a document share. */
export function changesSharedAttributes(contentType: ContentType, data: WriteData): boolean {
  return contentType.localized && Object.keys(sharedInput(contentType, data)).length > 0;
}

/** The lease that keeps one writer at a time on what a localization group shares (see lease.ts). */
export function localeGroupLease(contentType: ContentType, group: number): string {
  return `locale-group:${contentType.collectionName}:${group}`;
}

/**
 * Plans the writes that bring the localizations of document `group` (all but `exceptId`) in line with
 * `data`; validated before anything is written.
 */
export async function planSharedWrites(
  models: Models,
  registry: Registry,
  contentType: ContentType,
  group: unknown,
  exceptId: number | undefined,
  data: WriteData,
): Promise<SharedWrite[]> {
  if (!contentType.localized || typeof group !== 'number') return [];
  const shared = sharedInput(contentType, data);
  if (Object.keys(shared).length === 0) return [];
  const siblings = await entries(models, contentType.uid)
    .find({ localeGroup: group, ...(exceptId === undefined ? {} : { _id: { $ne: exceptId } }) })
    .sort({ _id: 1 })
    .toArray();
  return siblings.map((sibling) => {
    const isDraft = contentType.draftAndPublish && (sibling.publishedAt ?? null) === null;
    const plan = buildWrite(registry, contentType, shared, { mode: 'update', existing: sibling, isDraft });
    if (plan.issues.length > 0) throw ValidationError.fromIssues(plan.issues);
    return { entry: sibling, plan };
  });
}
