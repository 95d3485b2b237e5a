// Writing one entry: validate everything, check the database, then write; links to other entries
// settle after the write (claims.ts, integrity.ts). docs/ARCHITECTURE.md, "Write path".
import mongoose from 'mongoose';
import { entryIdFromPath, type ContentType } from '../content-types/index.js';
import { ApplicationError, NotFoundError, ValidationError, type AppError } from '../errors/index.js';
import type { QueryAccess } from '../query/access.js';
import type { ServiceContext } from '../service-context.js';
import { buildWrite, type StoredObject, type WritePlan } from './build.js';
import { LOCALE_TAKEN, assertWritable, writeOrUniqueError } from './checks.js';
import { newStamp, type Claim } from './claims.js';
import { entries, type StoredEntry } from './collection.js';
import { assignComponentIds } from './component-ids.js';
import { forgetSettled, recordSettle, type SettleSteps } from './pending-settles.js';
import { runSettleSteps } from './settle-recovery.js';
import { resolveOwningLinks } from './owning-links.js';
import { hashPasswords } from './passwords.js';
import { isPlainObject, type WriteData } from './payload.js';
import { applyInverseOps, planInverseWrites, readsInverseOrder, type InversePlan } from './relation-sides.js';
import { NEXT_REVISION, StaleEntry, atRevision, retryWhileStale } from './revision.js';
import { inTransaction, settleAgainAfterCommit, type WriteScope } from './scope.js';
import { storedDatetime } from './stored-formats.js';
import { hookedData, withLifecycles } from './lifecycle-hooks.js';
import { changesSharedAttributes, localeGroupLease, planSharedWrites, type SharedWrite } from './shared-attributes.js';
import { withNamedLease } from './lease.js';

export interface CreateOptions {
  /** the `locale` query parameter (wins over `data.locale`) */
  locale?: string | null;
  /** joins an existing group of localizations (the i18n localization route) */
  localeGroup?: number;
  /**
   * What of `data` the document's other localizations take from the new entry (Strapi's
   * `syncNonLocalizedAttributes` after its create): the localization route's body; a create joining
   * a document through `data.localizations` shares its whole `data`.
   */
  shared?: WriteData;
  /**
   * A body without `publishedAt` is stored unpublished but validated as a published entry
   * (required attributes enforced): Strapi's entity service, which GraphQL's create and the
   * localization route call.
   */
  unpublished?: boolean;
}

/** A service context, plus what the caller may read when the write comes from a client. */
export type WriteContext = ServiceContext & {
  access?: QueryAccess;
  /**
   * Writes as Strapi's query engine (`strapi.db.query`) makes them: password attributes stored as
   * given (its entity service hashes them) and none of the entity service's validation
   * (BuildOptions.validate); values are still cast to their stored types and unique indexes hold.
   */
  queryEngine?: boolean;
};

const canRelate = (ctx: WriteContext) => (uid: string) => ctx.access?.canRead(uid) ?? true;

/** The stored entry, or a 404 when the id is not a positive integer or does not exist. */
export async function loadEntry(
  ctx: ServiceContext,
  contentType: ContentType,
  rawId: string | number,
): Promise<StoredEntry> {
  const id = typeof rawId === 'number' ? rawId : entryIdFromPath(rawId);
  if (id === undefined) throw new NotFoundError();
  const entry = await entries(ctx.models, contentType.uid).findOne({ _id: id });
  if (!entry) throw new NotFoundError();
  return entry;
}

/** A configured locale code, default when absent; unknown → 400 ApplicationError as Strapi's i18n plugin. */
export function resolveLocale(ctx: ServiceContext, requested: unknown): string {
  const i18n = ctx.i18n;
  if (!i18n) throw new ApplicationError("This locale doesn't exist");
  // as Strapi's i18n: only a missing locale (undefined, null) is the default one; '' names none
  if (requested === undefined || requested === null) return i18n.defaultLocale;
  if (typeof requested !== 'string' || !i18n.locales.some((l) => l.code === requested))
    throw new ApplicationError("This locale doesn't exist");
  return requested;
}

/**
 * `publishedAt` of the body: undefined when absent, null for a draft, a Date otherwise; a value
 * that is no date is refused when the row is written, after the entry's other attributes.
 */
function readPublishedAt(data: WriteData, storageErrors: string[]): Date | null | undefined {
  if (!Object.prototype.hasOwnProperty.call(data, 'publishedAt') || data.publishedAt === undefined) return undefined;
  if (data.publishedAt === null) return null;
  const stored = storedDatetime(data.publishedAt);
  if (!stored.ok) {
    storageErrors.push(stored.message);
    return undefined;
  }
  return stored.value instanceof Date ? stored.value : undefined;
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

/** `{ 'a.b': 1 }` → `{ a: { b: 1 } }`: a new document from update-style paths. */
function asDocument(set: StoredObject): StoredObject {
  const doc: StoredObject = {};
  for (const [path, value] of Object.entries(set)) {
    const parts = path.split('.');
    let holder = doc;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(holder[part])) holder[part] = {};
      holder = holder[part] as StoredObject;
    }
    holder[parts[parts.length - 1]] = value;
  }
  return doc;
}

/**
 * Strapi's order: validation (with the relation targets and unique values), then what its writes
 * meet: components (an id the entry does not have, a value the database cannot convert), the
 * entry's own values, then connect positions.
 */
async function assertValid(
  ctx: WriteContext,
  contentType: ContentType,
  plan: WritePlan,
  entryId: number | null,
  againstDatabase = true,
): Promise<void> {
  await assertWritable(ctx.models, contentType, plan, entryId, {
    againstDatabase,
    validate: ctx.queryEngine !== true,
  });
  const component = firstComponentError(plan);
  if (component) throw component;
  if (plan.storageErrors.length > 0) throw new ValidationError(plan.storageErrors[0]);
  if (plan.relationErrors.length > 0) throw new ValidationError(plan.relationErrors[0]);
}

function firstComponentError(plan: WritePlan): AppError | undefined {
  const sorted = [...plan.componentErrors].sort((a, b) => {
    for (let i = 0; i < a.at.length; i++) if (a.at[i] !== b.at[i]) return a.at[i] - b.at[i];
    return 0;
  });
  return sorted[0]?.error;
}

/** What must run once the entry is written: claims settle, and links to entries deleted meanwhile go. */
function settleSteps(
  contentType: ContentType,
  id: number,
  plan: WritePlan,
  claims: Claim[],
  inverse: InversePlan,
): SettleSteps | undefined {
  const all = [...claims, ...inverse.claims];
  if (all.length === 0 && plan.targets.size === 0 && inverse.ops.length === 0) return undefined;
  return {
    claims: all,
    verify: {
      uid: contentType.uid,
      id,
      targets: [...plan.targets].map(([uid, ids]) => [uid, [...ids]]),
      linkedFromOthers: inverse.ops.length > 0,
    },
  };
}

/** Records the write's settling steps in its transaction (pending-settles.ts): a crash after the commit does not lose them. */
function recordSteps(ctx: ServiceContext, scope: WriteScope, steps: SettleSteps | undefined) {
  return steps ? recordSettle(ctx.models, scope, steps) : Promise.resolve(undefined);
}

/** Runs the settling steps once the entry is written, then forgets their record. */
async function afterWrite(ctx: ServiceContext, steps: SettleSteps | undefined, recorded: string | undefined) {
  if (!steps) return;
  await settleAgainAfterCommit(() => runSettleSteps(ctx.models, ctx.registry, steps));
  forgetSettled(ctx.models, recorded);
}

/** Runs the beforeCreate hooks, validates `data`, checks the database, creates the entry, runs the afterCreate hooks; answers its id. */
export function createEntry(
  ctx: WriteContext,
  contentType: ContentType,
  data: WriteData,
  options: CreateOptions = {},
): Promise<number> {
  return withLifecycles(ctx, { action: 'Create', uid: contentType.uid, params: { data } }, (params) =>
    insertEntry(ctx, contentType, hookedData(params), options),
  );
}

async function insertEntry(
  ctx: WriteContext,
  contentType: ContentType,
  data: WriteData,
  options: CreateOptions,
): Promise<number> {
  const publishErrors: string[] = [];
  const locale = contentType.localized ? resolveLocale(ctx, options.locale ?? data.locale) : null;
  const requested = contentType.draftAndPublish ? readPublishedAt(data, publishErrors) : undefined;
  const publishedAt = requested === undefined ? (options.unpublished ? null : new Date()) : requested;
  const isDraft = contentType.draftAndPublish && requested === null;
  const plan = buildWrite(ctx.registry, contentType, data, {
    mode: 'create',
    existing: null,
    isDraft,
    canRelate: canRelate(ctx),
    validate: ctx.queryEngine !== true,
  });
  plan.storageErrors.push(...publishErrors);
  const group = contentType.localized
    ? (options.localeGroup ?? (await groupOfLocalizations(ctx, contentType, data)))
    : undefined;
  // the localization route checked its group itself; a race past both checks meets the unique index
  if (contentType.localized && group !== undefined && locale && options.localeGroup === undefined) {
    const taken = await entries(ctx.models, contentType.uid).countDocuments(
      { localeGroup: group, locale },
      { limit: 1 },
    );
    if (taken > 0) plan.issues.push(LOCALE_TAKEN);
  }
  await assertValid(ctx, contentType, plan, null);
  // what the document's other localizations take from the new one: one such write at a time per group
  const shared = options.shared ?? (options.localeGroup === undefined ? data : undefined);
  if (group !== undefined && shared !== undefined && changesSharedAttributes(contentType, shared))
    return withNamedLease(ctx.models, localeGroupLease(contentType, group), async () => {
      const siblings = await planSharedWrites(ctx.models, ctx.registry, contentType, group, undefined, shared);
      return writeNewEntry(ctx, contentType, plan, { publishedAt, locale, group }, siblings);
    });
  return writeNewEntry(ctx, contentType, plan, { publishedAt, locale, group }, []);
}

/** Writes a validated new entry, and what the document's other localizations take from it. */
async function writeNewEntry(
  ctx: WriteContext,
  contentType: ContentType,
  plan: WritePlan,
  { publishedAt, locale, group }: { publishedAt: Date | null; locale: string | null; group: number | undefined },
  siblings: SharedWrite[],
): Promise<number> {
  const stamp = onceStamp(ctx);
  if (!ctx.queryEngine) await hashPasswords(plan.passwords);
  await assignComponentIds(ctx.models, plan.newComponents);
  const id = await ctx.models.counters.next(contentType.collectionName);
  const inverse = await planInverseWrites(ctx.models, plan.inverse, id, stamp);
  const claims = await resolveOwningLinks(ctx.models, ctx.registry, contentType, plan, id, null, stamp);
  const doc: StoredObject = { _id: id, ...asDocument(plan.set) };
  if (contentType.draftAndPublish) doc.publishedAt = publishedAt;
  if (locale) {
    doc.locale = locale;
    doc.localeGroup = group ?? id;
  }
  for (const sibling of siblings) await preparePlan(ctx, sibling.plan);
  const steps = settleSteps(contentType, id, plan, claims, inverse);
  const recorded = await inTransaction(ctx.models, async (scope) => {
    await writeOrUniqueError(() => insertDocument(ctx, contentType, doc, scope));
    for (const sibling of siblings)
      await writeUpdate(ctx, contentType, { _id: sibling.entry._id }, sibling.plan, {}, scope);
    await applyInverseOps(ctx.models, inverse.ops, scope);
    return recordSteps(ctx, scope, steps);
  });
  await afterWrite(ctx, steps, recorded);
  return id;
}

/**
 * Inserts a validated entry: cast, defaulted and timestamped as its Mongoose model would, written by
 * the driver. Not `Model.create`: a Strapi attribute may be named like a Mongoose document method
 * (`get`, `toObject`, `isNew`...), which breaks a document's save; the prototype's `toObject` does not.
 */
async function insertDocument(
  ctx: ServiceContext,
  contentType: ContentType,
  doc: StoredObject,
  scope: WriteScope,
): Promise<void> {
  const Model = ctx.models.model(contentType.uid);
  const now = new Date();
  const document = new Model({ ...doc, createdAt: now, updatedAt: now });
  const raw: Record<string, unknown> = mongoose.Document.prototype.toObject.call(document, {
    depopulate: true,
    virtuals: false,
  });
  await Model.collection.insertOne(raw, { session: scope.session });
}

/** One claim stamp per write, taken the first time a link needs one. */
function onceStamp(ctx: ServiceContext): () => Promise<number> {
  let stamp: Promise<number> | undefined;
  return () => (stamp ??= newStamp(ctx.models));
}

/**
 * Between the update hooks, validates `data` and updates an existing entry (only the attributes it names). When the write
 * was computed from what the entry stored and the entry changed meanwhile, it starts again from a
 * fresh read; an entry deleted meanwhile is a 404.
 */
export async function updateEntry(
  ctx: WriteContext,
  contentType: ContentType,
  entry: StoredEntry,
  data: WriteData,
): Promise<void> {
  const params = { where: { id: entry._id }, data };
  await withLifecycles(ctx, { action: 'Update', uid: contentType.uid, params, id: entry._id }, async (hooked) => {
    await changeEntry(ctx, contentType, entry, hookedData(hooked));
    return entry._id;
  });
}

async function changeEntry(
  ctx: WriteContext,
  contentType: ContentType,
  entry: StoredEntry,
  data: WriteData,
): Promise<void> {
  // what the localizations share is written to each of them: one such write at a time per group,
  // or two from two locales would leave each locale the other's values
  if (typeof entry.localeGroup === 'number' && changesSharedAttributes(contentType, data)) {
    await withNamedLease(ctx.models, localeGroupLease(contentType, entry.localeGroup), () =>
      writeChange(ctx, contentType, entry, data),
    );
  } else await writeChange(ctx, contentType, entry, data);
}

async function writeChange(
  ctx: WriteContext,
  contentType: ContentType,
  entry: StoredEntry,
  data: WriteData,
): Promise<void> {
  // first try: connects/disconnects that need no read go as atomic operators; if one meets a
  // stored id after all (the write's guard), the next round reads and compares instead
  let atomicLinks = true;
  await retryWhileStale(async (round) => {
    const current = round === 0 ? entry : await loadEntry(ctx, contentType, entry._id);
    const publishErrors: string[] = [];
    const requested = contentType.draftAndPublish ? readPublishedAt(data, publishErrors) : undefined;
    const publishedAt = requested === undefined ? (current.publishedAt ?? null) : requested;
    const isDraft = contentType.draftAndPublish && publishedAt === null;
    const plan = buildWrite(ctx.registry, contentType, data, {
      mode: 'update',
      existing: current,
      isDraft,
      canRelate: canRelate(ctx),
      atomicLinks,
      validate: ctx.queryEngine !== true,
    });
    plan.storageErrors.push(...publishErrors);
    await assertValid(ctx, contentType, plan, current._id, round === 0);
    const siblings = await planSharedWrites(
      ctx.models,
      ctx.registry,
      contentType,
      current.localeGroup,
      current._id,
      data,
    );

    const stamp = onceStamp(ctx);
    const inverse = await planInverseWrites(ctx.models, plan.inverse, current._id, stamp);
    const claims = await resolveOwningLinks(ctx.models, ctx.registry, contentType, plan, current._id, current, stamp);
    const extra: StoredObject = requested !== undefined ? { publishedAt: requested } : {};
    const compared = plan.readsStored || plan.inverse.some(readsInverseOrder);
    await preparePlan(ctx, plan);
    for (const sibling of siblings) await preparePlan(ctx, sibling.plan);
    const steps = settleSteps(contentType, current._id, plan, claims, inverse);
    const recorded = await inTransaction(ctx.models, async (scope) => {
      const written = await writeUpdate(
        ctx,
        contentType,
        compared ? atRevision(current) : { _id: current._id },
        plan,
        extra,
        scope,
      );
      if (!written) {
        if (Object.keys(plan.push).length > 0) atomicLinks = false;
        throw compared || !atomicLinks ? new StaleEntry() : new NotFoundError();
      }
      for (const sibling of siblings)
        await writeUpdate(ctx, contentType, { _id: sibling.entry._id }, sibling.plan, {}, scope);
      await applyInverseOps(ctx.models, inverse.ops, scope);
      return recordSteps(ctx, scope, steps);
    });
    await afterWrite(ctx, steps, recorded);
  });
}

/** Hashes and component ids, once the plan is known to be valid. */
async function preparePlan(ctx: WriteContext, plan: WritePlan): Promise<void> {
  if (!ctx.queryEngine) await hashPasswords(plan.passwords);
  await assignComponentIds(ctx.models, plan.newComponents);
}

/** One `updateOne` of a validated plan; false when no entry matched `filter`. */
async function writeUpdate(
  ctx: ServiceContext,
  contentType: ContentType,
  filter: Record<string, unknown>,
  plan: WritePlan,
  extra: StoredObject,
  scope: WriteScope,
): Promise<boolean> {
  const set: StoredObject = { ...plan.set, ...extra };
  const unset = Object.fromEntries(plan.unset.map((name) => [name, 1]));
  const push = Object.entries(plan.push);
  const pull = Object.entries(plan.pull);
  const guards = Object.fromEntries(push.map(([name, ids]) => [name, { $nin: ids }]));
  const update = {
    $set: set,
    ...(plan.unset.length > 0 ? { $unset: unset } : {}),
    ...(push.length > 0 ? { $push: Object.fromEntries(push.map(([name, ids]) => [name, { $each: ids }])) } : {}),
    ...(pull.length > 0 ? { $pull: Object.fromEntries(pull.map(([name, ids]) => [name, { $in: ids }])) } : {}),
    ...NEXT_REVISION,
  };
  const result = await writeOrUniqueError(() =>
    ctx.models.model(contentType.uid).updateOne({ ...filter, ...guards }, update, { session: scope.session }),
  );
  return result.matchedCount > 0;
}
