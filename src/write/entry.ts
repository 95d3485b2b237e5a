// Writing one entry: validate everything, check the database, then write (no transactions in the
// embedded engine, so nothing after the first write may fail on bad input).
import mongoose from 'mongoose';
import type { ContentType } from '../content-types/index.js';
import { NotFoundError, ValidationError, type ValidationIssue } from '../errors/index.js';
import type { QueryAccess } from '../query/access.js';
import type { ServiceContext } from '../service-context.js';
import { buildWrite, type StoredObject, type WritePlan } from './build.js';
import { assertWritable, writeOrUniqueError } from './checks.js';
import { entries, type StoredEntry } from './collection.js';
import { assignComponentIds } from './component-ids.js';
import { hashPasswords } from './passwords.js';
import { issue } from './messages.js';
import { isPlainObject, type WriteData } from './payload.js';
import { applyInverseWrites, releaseExclusiveTargets } from './relation-sides.js';
import { castScalar } from './scalar.js';
import { planSharedWrites } from './shared-attributes.js';

export interface CreateOptions {
  /** the `locale` query parameter (wins over `data.locale`) */
  locale?: string | null;
  /** joins an existing group of localizations (the i18n localization route) */
  localeGroup?: number;
  /** the v4 localization route always creates a draft */
  draft?: boolean;
}

/** A service context, plus what the caller may read when the write comes from a client. */
export type WriteContext = ServiceContext & { access?: QueryAccess };

const canRelate = (ctx: WriteContext) => (uid: string) => ctx.access?.canRead(uid) ?? true;

/** The stored entry, or a 404 when the id is not a positive integer or does not exist. */
export async function loadEntry(
  ctx: ServiceContext,
  contentType: ContentType,
  rawId: string | number,
): Promise<StoredEntry> {
  const id = typeof rawId === 'number' ? rawId : /^[1-9]\d*$/.test(rawId) ? Number(rawId) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new NotFoundError();
  const entry = await entries(ctx.models, contentType.uid).findOne({ _id: id });
  if (!entry) throw new NotFoundError();
  return entry;
}

/** A configured locale code, default when absent; unknown → 400 as Strapi's i18n plugin. */
export function resolveLocale(ctx: ServiceContext, requested: unknown): string {
  const i18n = ctx.i18n;
  if (!i18n) throw new ValidationError("This locale doesn't exist");
  if (requested === undefined || requested === null || requested === '') return i18n.defaultLocale;
  if (typeof requested !== 'string' || !i18n.locales.some((l) => l.code === requested))
    throw new ValidationError("This locale doesn't exist");
  return requested;
}

/** `publishedAt` of the body: undefined when absent, null for a draft, a Date otherwise. */
function readPublishedAt(data: WriteData, issues: ValidationIssue[]): Date | null | undefined {
  if (!Object.prototype.hasOwnProperty.call(data, 'publishedAt') || data.publishedAt === undefined) return undefined;
  if (data.publishedAt === null) return null;
  const cast = castScalar({ type: 'datetime' }, ['publishedAt'], data.publishedAt, false);
  if (!cast.ok) {
    issues.push(...cast.issues);
    return undefined;
  }
  return cast.value instanceof Date ? cast.value : undefined;
}

/** The localeGroup of the entries listed in `data.localizations` (Strapi v4 links them on create). */
async function groupOfLocalizations(
  ctx: ServiceContext,
  contentType: ContentType,
  data: WriteData,
): Promise<number | undefined> {
  const raw = data.localizations;
  const list = Array.isArray(raw) ? raw : [];
  const ids = list
    .map((v) => (isPlainObject(v) ? v.id : v))
    .filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v));
  if (ids.length === 0) return undefined;
  const linked = await entries(ctx.models, contentType.uid).findOne({ _id: { $in: ids } });
  if (!linked)
    throw ValidationError.forPath(
      ['localizations'],
      `${ids.length} relation(s) of type ${contentType.uid} associated with this entity do not exist`,
    );
  return typeof linked.localeGroup === 'number' ? linked.localeGroup : linked._id;
}

async function afterWrite(
  ctx: ServiceContext,
  contentType: ContentType,
  plan: WritePlan,
  id: number,
  now: Date,
): Promise<void> {
  await releaseExclusiveTargets(ctx.models, ctx.registry, contentType, plan.set, id);
  await applyInverseWrites(ctx.models, plan.inverse, id, now);
}

/** Validates `data`, checks the database, then creates the entry; answers its id. */
export async function createEntry(
  ctx: WriteContext,
  contentType: ContentType,
  data: WriteData,
  options: CreateOptions = {},
): Promise<number> {
  const issues: ValidationIssue[] = [];
  const locale = contentType.localized ? resolveLocale(ctx, options.locale ?? data.locale) : null;
  const requested = contentType.draftAndPublish ? readPublishedAt(data, issues) : undefined;
  const publishedAt = options.draft ? null : requested === undefined ? new Date() : requested;
  const isDraft = contentType.draftAndPublish && publishedAt === null;
  const plan = buildWrite(ctx.registry, contentType, data, {
    mode: 'create',
    existing: null,
    isDraft,
    canRelate: canRelate(ctx),
  });
  plan.issues.unshift(...issues);
  const group = contentType.localized
    ? (options.localeGroup ?? (await groupOfLocalizations(ctx, contentType, data)))
    : undefined;
  if (contentType.localized && group !== undefined && locale) {
    const taken = await entries(ctx.models, contentType.uid).countDocuments(
      { localeGroup: group, locale },
      { limit: 1 },
    );
    if (taken > 0) plan.issues.push(issue(['locale'], 'This locale is already used'));
  }
  await assertWritable(ctx.models, contentType, plan, null, locale);

  await hashPasswords(plan.passwords);
  await assignComponentIds(ctx.models, plan.newComponents);
  const id = await ctx.models.counters.next(contentType.collectionName);
  const doc: StoredObject = { _id: id, ...plan.set };
  if (contentType.draftAndPublish) doc.publishedAt = publishedAt;
  if (locale) {
    doc.locale = locale;
    doc.localeGroup = group ?? id;
  }
  const now = new Date();
  await writeOrUniqueError(() => insertDocument(ctx, contentType, { ...doc, createdAt: now, updatedAt: now }));
  await afterWrite(ctx, contentType, plan, id, now);
  return id;
}

/**
 * Inserts a validated entry: cast and defaulted by its Mongoose schema, written by the driver.
 * Not `Model.create`: a Strapi attribute may be named like a Mongoose document method (`get`,
 * `toObject`, `isNew`...), which breaks a document's save; the prototype's `toObject` does not care.
 */
async function insertDocument(ctx: ServiceContext, contentType: ContentType, doc: StoredObject): Promise<void> {
  const Model = ctx.models.model(contentType.uid);
  const raw = mongoose.Document.prototype.toObject.call(new Model(doc), { depopulate: true, virtuals: false });
  await Model.collection.insertOne(raw);
}

/** Validates `data` and updates an existing entry (only the attributes it names). */
export async function updateEntry(
  ctx: WriteContext,
  contentType: ContentType,
  entry: StoredEntry,
  data: WriteData,
): Promise<void> {
  const issues: ValidationIssue[] = [];
  const requested = contentType.draftAndPublish ? readPublishedAt(data, issues) : undefined;
  const publishedAt = requested === undefined ? (entry.publishedAt ?? null) : requested;
  const isDraft = contentType.draftAndPublish && publishedAt === null;
  const plan = buildWrite(ctx.registry, contentType, data, {
    mode: 'update',
    existing: entry,
    isDraft,
    canRelate: canRelate(ctx),
  });
  plan.issues.unshift(...issues);
  const locale = typeof entry.locale === 'string' ? entry.locale : null;
  await assertWritable(ctx.models, contentType, plan, entry._id, locale);
  const siblings = await planSharedWrites(ctx.models, ctx.registry, contentType, entry, data);

  const extra: StoredObject = requested !== undefined ? { publishedAt: requested } : {};
  await writeUpdate(ctx, contentType, entry, plan, extra);
  for (const sibling of siblings) await writeUpdate(ctx, contentType, sibling.entry, sibling.plan, {});
  await afterWrite(ctx, contentType, plan, entry._id, new Date());
}

/** Hashes, ids, then one `updateOne` of a validated plan. */
async function writeUpdate(
  ctx: ServiceContext,
  contentType: ContentType,
  entry: StoredEntry,
  plan: WritePlan,
  extra: StoredObject,
): Promise<void> {
  await hashPasswords(plan.passwords);
  await assignComponentIds(ctx.models, plan.newComponents);
  const set: StoredObject = { ...plan.set, ...extra };
  const unset = Object.fromEntries(plan.unset.map((name) => [name, 1]));
  await writeOrUniqueError(() =>
    ctx.models
      .model(contentType.uid)
      .updateOne({ _id: entry._id }, { $set: set, ...(plan.unset.length > 0 ? { $unset: unset } : {}) }),
  );
}
