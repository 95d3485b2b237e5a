// POST /api/<plural>/:id/localizations (Strapi v4 i18n): a new entry in another locale of the
// same document. It copies the source's non-localized attributes, takes the flat body for the
// rest (the shared ones the body gives go to the other localizations too, as Strapi's), is
// created as Strapi's entity service creates: a draft unless the body gives `publishedAt`, yet
// validated as published (required attributes) unless that is null. Answered flat:
// `{ id, ...attributes, localizations }`.
import type { Attribute, ContentType } from '../content-types/index.js';
import { ApplicationError, NotFoundError } from '../errors/index.js';
import {
  createEntry,
  entries,
  LocaleTakenError,
  isPlainObject,
  loadEntry,
  localeGroupLease,
  withNamedLease,
  withoutIds,
  writableContentType,
  type StoredEntry,
  type WriteData,
} from '../write/index.js';
import type { OperationContext, RawQuery } from './context.js';
import { findWritten } from './find-one.js';
import { prepareEntryEvents } from './entry-events.js';
import { checkAnswerQuery } from './write-answer.js';

export type FlatEntry = { id: number } & Record<string, unknown>;

const NOT_COPIED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations']);

function copiedValue(attribute: Attribute, value: unknown): unknown {
  if (attribute.type === 'component' || attribute.type === 'dynamiczone') return withoutIds(value);
  if (attribute.type === 'biginteger' && value !== null && value !== undefined) return String(value);
  return value;
}

/** Strapi's `copyNonLocalizedAttributes`: not localized, not a relation, not a uid. */
function nonLocalizedAttributes(contentType: ContentType, source: StoredEntry): WriteData {
  const copy: WriteData = {};
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    // passwords are stored hashed and cannot go through the write path again
    if (
      NOT_COPIED.has(name) ||
      attribute.type === 'relation' ||
      attribute.type === 'media' ||
      attribute.type === 'uid' ||
      attribute.type === 'password'
    )
      continue;
    if (attribute.pluginOptions?.i18n?.localized !== false) continue;
    if (source[name] !== undefined) copy[name] = copiedValue(attribute, source[name]);
  }
  return copy;
}

/** `{ data: { id, attributes } }` → `{ id, ...attributes }`, populated relations flattened the same way. */
function flatten(entry: { id: number; attributes: Record<string, unknown> }): FlatEntry {
  const flat: FlatEntry = { id: entry.id };
  for (const [name, value] of Object.entries(entry.attributes)) {
    const data = isPlainObject(value) && 'data' in value ? value.data : undefined;
    if (Array.isArray(data))
      flat[name] = data
        .filter(isPlainObject)
        .map((e) => flatten(e as { id: number; attributes: Record<string, unknown> }));
    else if (isPlainObject(data)) flat[name] = flatten(data as { id: number; attributes: Record<string, unknown> });
    else flat[name] = value;
  }
  return flat;
}

/** The entry a localization is made from: by id, or a single type's (first) entry when `sourceId` is null. */
async function sourceEntry(
  ctx: OperationContext,
  contentType: ContentType,
  sourceId: string | null,
): Promise<StoredEntry> {
  // Strapi's i18n route words its 404 so
  if (sourceId !== null)
    return loadEntry(ctx, contentType, sourceId).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError('Entity not found') : error;
    });
  const entry = await entries(ctx.models, contentType.uid).findOne({}, { sort: { _id: 1 } });
  if (!entry) throw new NotFoundError();
  return entry;
}

/** `sourceId` null: `POST /api/<singular>/localizations` of a localized single type. */
export async function createLocalization(
  ctx: OperationContext,
  uid: string,
  sourceId: string | null,
  body: unknown,
  query: RawQuery,
): Promise<FlatEntry> {
  const contentType = writableContentType(ctx, uid);
  if (!contentType.localized || !ctx.i18n) throw new NotFoundError();
  const source = await sourceEntry(ctx, contentType, sourceId);
  const input = isPlainObject(body) ? body : {};
  const locale = input.locale;
  if (locale === undefined || locale === null) throw new ApplicationError('locale is missing');
  if (typeof locale !== 'string' || !ctx.i18n.locales.some((l) => l.code === locale))
    throw new ApplicationError('locale is invalid');
  const group = typeof source.localeGroup === 'number' ? source.localeGroup : source._id;
  const used = await entries(ctx.models, uid).countDocuments({ localeGroup: group, locale }, { limit: 1 });
  if (used > 0) throw new ApplicationError('locale is already used');
  const { id: _id, locale: _locale, localizations: _localizations, ...attributes } = input;
  await checkAnswerQuery(ctx, uid, query);
  // the shared attributes are copied from the source as they are now, not as an update of the
  // group running meanwhile leaves them: under the group's lease, read again
  const id = await withNamedLease(ctx.models, localeGroupLease(contentType, group), async () => {
    const current = await entries(ctx.models, uid).findOne({ _id: source._id });
    if (!current) throw new NotFoundError();
    const data: WriteData = { ...nonLocalizedAttributes(contentType, current), ...attributes };
    return createEntry(ctx, contentType, data, {
      locale,
      localeGroup: group,
      unpublished: true,
      shared: attributes,
    }).catch((error: unknown) => {
      // another request created this locale meanwhile (the unique index of the group decided)
      throw error instanceof LocaleTakenError ? new ApplicationError('locale is already used') : error;
    });
  });
  const answer = await findWritten(ctx, uid, String(id), {
    ...query,
    populate: 'localizations',
    publicationState: 'preview',
  });
  if (!answer.data) throw new NotFoundError();
  (await prepareEntryEvents(ctx, uid, id, { populate: 'localizations' }, ['entry.create']))();
  return flatten(answer.data);
}
