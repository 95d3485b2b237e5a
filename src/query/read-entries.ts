import type { ContentType } from '../content-types/index.js';
import { constantStage } from '../database/constant-stages.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { DbLifecycles, ServiceContext } from '../service-context.js';
import { APP_CODE, type QueryAccess } from './access.js';
import { checkFilters, compileFilters, compileFiltersPushedDown, type PipelineStage } from './filters/index.js';
import {
  formatEntry,
  formatEnvelopeEntry,
  formatPlainEntry,
  type EnvelopeEntry,
  type FormatStyle,
  type PlainEntry,
} from './format.js';
import { parseFields } from './parse/fields.js';
import { localeFallback, localeFilters, localeMatch } from './parse/locale.js';
import {
  checkTopLevelPagination,
  paginationMeta,
  paginationWindow,
  parsePagination,
  type PaginationLimits,
} from './parse/pagination.js';
import { parsePopulate, type PopulateContext } from './parse/populate.js';
import { PopulateGuard } from './parse/populate-limits.js';
import { askedPublicationState, parsePublicationState, publicationMatch } from './parse/publication-state.js';
import { envelopeOfPlain } from './plain-to-envelope.js';
import {
  countPaginationParams,
  listensToRead,
  paginationOfParams,
  queryOfParams,
  runAfterRead,
  runBeforeRead,
  selectionParams,
  windowParams,
} from './read-hooks.js';
import { searchMatch } from './parse/search.js';
import { joinsTables, withSortedFields } from './parse/sorted-fields.js';
import { signPopulatedMedia } from './sign-media.js';
import { populateStages, projection, type PlanContext } from './plan/populate-stages.js';
import { withPopulateFiltersPushedDown } from './plan/populate-filters.js';
import { relatedEntries } from './plan/related-entries.js';
import { populatesMorph, resolveMorphs, type MorphReader } from './morph-populate.js';
import { SelectionMemo, selectionKey, type MemoizedSelection } from './selection-memo.js';
import type { EntrySelection, PublicationState, ReadTree } from './read-tree.js';
import { compileSort } from './sort/index.js';
import type { SortReading } from './sort/parse.js';

type Doc = Record<string, unknown>;

/** What a read needs of the service (an OperationContext is one). */
export type ReadContext = Pick<ServiceContext, 'config' | 'registry' | 'models' | 'i18n' | 'mediaUrlSigner'> & {
  access: QueryAccess;
};

/** The qs-parsed query string (or an equivalent object built by other layers). */
export type ReadQuery = Record<string, unknown>;

export interface ReadEntriesOptions {
  /** `envelope` (default): `{ id, attributes }` entries; `plain`: flat `{ id, ...attributes }` objects */
  style?: FormatStyle;
  /** a fixed window instead of the query's `pagination` (users-permissions reads top-level `start`/`limit`) */
  window?: { start: number; limit: number };
  /** the app's read hooks to run around the read (`beforeFindMany`..., `beforeCount`...), as Strapi's query engine does */
  lifecycles?: DbLifecycles;
}

export interface ReadEntriesResult<Entry> {
  /** formatted entries, in order */
  entries: Entry[];
  /** Strapi's `meta.pagination` (`{page,pageSize,pageCount,total}` or `{start,limit,total}`; no total with `withCount=false`) */
  pagination: Record<string, number>;
}

/**
 * A filtered, sorted, paginated, populated list of entries of `uid`, as `find` answers it: the
 * whole REST read language of `rawQuery` (fields, populate, filters, sort, pagination,
 * publicationState, locale, and the opt-in `fallbackLocale`), run as ONE aggregation (plus one count when the total is needed).
 * Reusable by any layer that needs the same read (users-permissions reads users with
 * `{ style: 'plain' }`). Throws ValidationError (400) on bad input.
 */
export async function readEntries(
  ctx: ReadContext,
  uid: string,
  rawQuery: ReadQuery,
  options?: { style?: 'envelope'; lifecycles?: DbLifecycles },
): Promise<ReadEntriesResult<EnvelopeEntry>>;
export async function readEntries(
  ctx: ReadContext,
  uid: string,
  rawQuery: ReadQuery,
  options: { style: 'plain'; window?: ReadEntriesOptions['window']; lifecycles?: DbLifecycles },
): Promise<ReadEntriesResult<PlainEntry>>;
export async function readEntries(
  ctx: ReadContext,
  uid: string,
  rawQuery: ReadQuery,
  options: ReadEntriesOptions = {},
): Promise<ReadEntriesResult<EnvelopeEntry | PlainEntry>> {
  const schema = requireContentType(ctx, uid);
  const { tree, chosen } = await parseFind(ctx, schema, rawQuery);
  if (options.window) tree.pagination = { style: 'offset', ...options.window, withCount: false };
  const style = options.style ?? 'envelope';
  const { lifecycles } = options;
  if (lifecycles && (listensToRead(lifecycles, 'FindMany', uid) || listensToRead(lifecycles, 'Count', uid)))
    return readEntriesHooked(ctx, schema, rawQuery, tree, style, lifecycles);
  const read = await plannedRead(ctx, chosen);
  tree.selection = read.selection;
  const { filtering, pipeline } = planFind(ctx, tree, read.planned);
  const [docs, total] = await Promise.all([
    entryDocs(ctx, uid, pipeline, tree.selection),
    tree.pagination.withCount ? count(ctx, uid, filtering) : Promise.resolve(null),
  ]);
  const fmt = { registry: ctx.registry, style: options.style ?? 'envelope' };
  return {
    entries: docs.map((doc) => formatEntry(fmt, doc, tree.selection)),
    pagination: paginationMeta(tree.pagination, total),
  };
}

/**
 * `readEntries` with the app's read hooks: `beforeFindMany` → the page → `afterFindMany`, then
 * (when the total is answered) `beforeCount` → the count → `afterCount`, as Strapi's core service
 * reads a list. A before-hook's params are the read's; the request's own were checked with the
 * caller's permissions first, what a hook adds is the app's and read unrestricted. The answer's
 * `meta.pagination` is the request's, whatever window the hook read.
 */
async function readEntriesHooked(
  ctx: ReadContext,
  schema: ContentType,
  rawQuery: ReadQuery,
  tree: ReadTree,
  style: FormatStyle,
  lifecycles: DbLifecycles,
): Promise<ReadEntriesResult<EnvelopeEntry | PlainEntry>> {
  const uid = schema.uid;
  const asked = selectionParams(rawQuery);
  const find = await runBeforeRead(lifecycles, 'FindMany', uid, { ...asked, ...windowParams(tree.pagination) });
  const readTree = find.changed ? await hookedTree(ctx, schema, rawQuery, find.params) : tree;
  if (find.changed) readTree.pagination = paginationOfParams(find.params);
  const docs = await entryDocs(ctx, uid, planFind(ctx, readTree).pipeline, readTree.selection);
  const entries = await formatHooked(
    ctx,
    docs,
    readTree.selection,
    style,
    lifecycles.listens('afterFindMany', uid)
      ? (plain) => runAfterRead(lifecycles, 'FindMany', uid, find, plain)
      : undefined,
  );
  let total: number | null = null;
  if (tree.pagination.withCount) {
    const counting = await runBeforeRead(lifecycles, 'Count', uid, {
      ...asked,
      ...countPaginationParams(tree.pagination),
    });
    const countTree = counting.changed ? await hookedTree(ctx, schema, rawQuery, counting.params) : tree;
    total = await count(ctx, uid, planFind(ctx, countTree).filtering);
    await runAfterRead(lifecycles, 'Count', uid, counting, total);
  }
  return { entries, pagination: paginationMeta(tree.pagination, total) };
}

/**
 * The read tree of what a before-hook left: its filters and sort are the app's words (no
 * permission applies to them, private attributes included); what is answered (fields, populate) stays within the caller's
 * permissions, as Strapi sanitizes the answer after the hooks.
 */
async function hookedTree(
  ctx: ReadContext,
  schema: ContentType,
  rawQuery: ReadQuery,
  params: Record<string, unknown>,
): Promise<ReadTree> {
  const query = queryOfParams(rawQuery, params);
  const { tree } = await parseFind({ ...ctx, access: APP_CODE }, schema, query);
  return { ...tree, selection: parseSelection(ctx, schema, query, tree.publicationState) };
}

/**
 * Entries read by the aggregation in `style`; when `after` (the after-hooks) listens, handed to
 * it flat first, and answered as it leaves them.
 */
async function formatHooked(
  ctx: ReadContext,
  docs: Doc[],
  selection: EntrySelection,
  style: FormatStyle,
  after: ((plain: PlainEntry[]) => Promise<void>) | undefined,
): Promise<Array<EnvelopeEntry | PlainEntry>> {
  const { registry } = ctx;
  if (!after) return docs.map((doc) => formatEntry({ registry, style }, doc, selection));
  const plain = docs.map((doc) => formatPlainEntry(registry, doc, selection));
  await after(plain);
  if (style === 'plain') return plain;
  return plain.map((entry, i) => {
    const doc = docs[i];
    return envelopeOfPlain(entry, selection, doc ? formatEnvelopeEntry(registry, doc, selection) : undefined);
  });
}

/**
 * The typed read tree of a find: every parameter parsed and validated (400 on bad input); relation
 * filters are answered on the related collections first (one query each).
 */
async function parseFind(
  ctx: ReadContext,
  schema: ContentType,
  rawQuery: ReadQuery,
): Promise<{ tree: ReadTree; chosen: MemoizedSelection }> {
  const query = { registry: ctx.registry, uid: schema.uid, access: ctx.access };
  // Strapi's validator first (the filters' keys, the sort, fields, populate), then what its
  // database layer meets (a 500 there, a 400 here: the state, locale, pagination, filter values)
  if (rawQuery.filters !== undefined) checkFilters({ ...query, filters: rawQuery.filters });
  const sort = compileListSort(query, rawQuery.sort);
  // an empty `fields=` fails only in Strapi's database layer: refused after the pagination and the state
  const emptyFields = rawQuery.fields === '';
  const chosen = memoizedSelection(
    ctx,
    schema,
    emptyFields ? withoutFields(rawQuery) : rawQuery,
    askedPublicationState(rawQuery.publicationState),
  );
  // Strapi's core service reads the pagination (its mixes are 400s there) before its database
  // meets the sort's directions or the query's state
  const pagination = parsePagination(rawQuery.pagination, limits(ctx));
  if (sort instanceof Error) throw sort;
  checkTopLevelPagination(rawQuery, pagination);
  const state = parsePublicationState(rawQuery.publicationState);
  if (emptyFields) parseFields(schema, rawQuery.fields, ctx.access.readsPrivate);
  const fallback = localeFallback(schema, ctx.i18n, rawQuery.locale, rawQuery.fallbackLocale);
  const search = searchMatch(schema, rawQuery._q);
  const localeFilter = localeFilters(schema, ctx.i18n, rawQuery.locale);
  const tree: ReadTree = {
    selection: chosen.selection,
    match: {
      ...publicationMatch(schema.draftAndPublish, state),
      ...localeMatch(schema, ctx.i18n, rawQuery.locale),
      ...fallback?.match,
    },
    localeStages: fallback?.stages ?? [],
    filterStages: [
      ...(search ? [{ $match: search }] : []),
      ...(rawQuery.filters === undefined
        ? []
        : await compileFiltersPushedDown({ ...query, filters: rawQuery.filters }, related(ctx))),
      ...(localeFilter === undefined ? [] : compileFilters({ ...query, filters: localeFilter })),
    ],
    sort: sort ?? { lookups: [], sort: fallback ? { localeGroup: 1, _id: 1 } : { _id: 1 }, cleanup: [] },
    pagination,
    publicationState: state,
  };
  const answered = withJoinSortedFields(schema, rawQuery, chosen);
  tree.selection = answered.selection;
  return { tree, chosen: answered };
}

function withoutFields(rawQuery: ReadQuery): ReadQuery {
  const { fields: _empty, ...rest } = rawQuery;
  return rest;
}

/**
 * The selection with the entry's own attributes the sort names added to the fields asked for,
 * where Strapi's query joins (it selects them for its DISTINCT, and answers them); otherwise the
 * memoized selection itself.
 */
function withJoinSortedFields(schema: ContentType, rawQuery: ReadQuery, chosen: MemoizedSelection): MemoizedSelection {
  if (rawQuery.fields === undefined || rawQuery.sort === undefined) return chosen;
  if (!joinsTables(schema, rawQuery.filters, rawQuery.sort)) return chosen;
  const fields = withSortedFields(schema, chosen.selection.fields, rawQuery.sort);
  if (fields.length === chosen.selection.fields.length) return chosen;
  return { selection: { ...chosen.selection, fields } };
}

/**
 * A list's sort, compiled; a bad key throws at once (Strapi's validator), a bad direction is
 * returned, to be thrown after the checks of `fields` and `populate` (Strapi's database layer
 * meets it after its validator). undefined without a sort.
 */
function compileListSort(
  query: { registry: ReadContext['registry']; uid: string; access: QueryAccess },
  raw: unknown,
): ReadTree['sort'] | ValidationError | undefined {
  if (raw === undefined) return undefined;
  try {
    return compileSort({ ...query, sort: raw });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    compileSort({ ...query, sort: raw, reading: { directions: 'ignored' } });
    return error;
  }
}

/**
 * The find aggregation: `$match` (publication state, locale: index-served) → locale fallback →
 * filters → sort lookups → `$sort` → `$skip` → `$limit` → sort clean-up → populate `$lookup`s → `$project`; and
 * the stages selecting the entries, which the count reuses.
 */
function planFind(
  ctx: ReadContext,
  tree: ReadTree,
  planned: PlannedSelection = plannedStages(ctx, { selection: tree.selection }),
): { filtering: PipelineStage[]; pipeline: PipelineStage[] } {
  const window = paginationWindow(tree.pagination);
  const filtering: PipelineStage[] = [{ $match: tree.match }, ...tree.localeStages, ...tree.filterStages];
  const pipeline: PipelineStage[] = [
    ...filtering,
    ...tree.sort.lookups,
    { $sort: tree.sort.sort },
    ...(window.skip > 0 ? [{ $skip: window.skip }] : []),
    ...(window.limit === null ? [] : [{ $limit: window.limit }]),
    // after the window, so the sort is a top-k and only the page's entries lose the sort's fields
    ...tree.sort.cleanup,
    ...planned.stages,
    planned.project,
  ];
  return { filtering, pipeline };
}

/**
 * One entry of `uid` matching `match` (e.g. `{ _id: 3 }`, or `{}` for a single type), with the
 * request's fields, populate and publicationState (a draft is not found without `preview`);
 * filters, sort, pagination and locale do not apply (Strapi's findOne), though bad filters or sort
 * are still 400s. null when none.
 */
export async function readEntry(
  ctx: ReadContext,
  uid: string,
  match: Doc,
  rawQuery: ReadQuery,
  options?: { style?: 'envelope' } & EntryHooks,
): Promise<EnvelopeEntry | null>;
export async function readEntry(
  ctx: ReadContext,
  uid: string,
  match: Doc,
  rawQuery: ReadQuery,
  options: { style: 'plain' } & EntryHooks,
): Promise<PlainEntry | null>;
export async function readEntry(
  ctx: ReadContext,
  uid: string,
  match: Doc,
  rawQuery: ReadQuery,
  options: { style?: FormatStyle } & EntryHooks = {},
): Promise<EnvelopeEntry | PlainEntry | null> {
  const schema = requireContentType(ctx, uid);
  validateUnused(ctx, uid, rawQuery, { directions: options.sortDirections ?? 'ignored' }, 'keys');
  const chosen = memoizedSelection(ctx, schema, rawQuery, askedPublicationState(rawQuery.publicationState));
  const state = parsePublicationState(rawQuery.publicationState);
  let selection = chosen.selection;
  const style = options.style ?? 'envelope';
  const { lifecycles } = options;
  if (!lifecycles || !listensToRead(lifecycles, 'FindOne', uid)) {
    const read = await plannedRead(ctx, chosen);
    const pipeline = entryPipeline(ctx, schema, state, match, [], read.planned);
    const doc = await entryDoc(ctx, uid, pipeline, read.selection);
    return doc ? formatEntry({ registry: ctx.registry, style }, doc, read.selection) : null;
  }
  const where = options.where === undefined ? {} : { where: options.where };
  const one = await runBeforeRead(lifecycles, 'FindOne', uid, { ...where, ...selectionParams(selectionOf(rawQuery)) });
  // a hook's filters are the app's (no permission applies); what is answered stays the caller's
  const access = one.changed ? APP_CODE : ctx.access;
  if (one.changed) selection = parseSelection(ctx, schema, queryOfParams(rawQuery, one.params), state);
  const filters = one.params.where;
  const filterStages =
    filters === undefined || filters === null
      ? []
      : await compileFiltersPushedDown({ registry: ctx.registry, uid, access, filters }, related(ctx));
  const read = await plannedRead(ctx, { selection });
  selection = read.selection;
  const pipeline = entryPipeline(ctx, schema, state, match, filterStages, read.planned);
  const doc = await entryDoc(ctx, uid, pipeline, selection);
  const after = lifecycles.listens('afterFindOne', uid)
    ? (plain: PlainEntry[]) => runAfterRead(lifecycles, 'FindOne', uid, one, plain[0] ?? null)
    : undefined;
  if (!doc) {
    await after?.([]);
    return null;
  }
  const [entry] = await formatHooked(ctx, [doc], selection, style, after);
  return entry ?? null;
}

/** The hooks a read of one entry runs, and the `where` its event names (`{ id }`; a single type's filters). */
export interface EntryHooks {
  lifecycles?: DbLifecycles;
  where?: unknown;
  /**
   * Strapi's findOne validates the sort's keys only and never reads it (`ignored`, the default:
   * `sort=title:sideways` answers); a single type's find reads it (`checked`).
   */
  sortDirections?: 'checked' | 'ignored';
}

function selectionOf(rawQuery: ReadQuery): ReadQuery {
  const { fields, populate } = rawQuery;
  return { fields, populate };
}

function entryPipeline(
  ctx: ReadContext,
  schema: ContentType,
  state: PublicationState,
  match: Doc,
  filterStages: PipelineStage[],
  planned: PlannedSelection,
): PipelineStage[] {
  return [
    { $match: { ...match, ...publicationMatch(schema.draftAndPublish, state) } },
    ...filterStages,
    { $sort: { _id: 1 } },
    { $limit: 1 },
    ...planned.stages,
    planned.project,
  ];
}

/**
 * Strapi validates `filters` and `sort` on every read, also where they do not apply (findOne): a
 * bad one is still a 400. `filters: 'keys'` checks only what Strapi's validator checks of them
 * (their keys, not their operators or values, which only its database layer would meet), as a
 * findOne and a write's answer do; by default they are compiled whole.
 */
export function validateUnused(
  ctx: Pick<ReadContext, 'registry' | 'access'>,
  uid: string,
  rawQuery: ReadQuery,
  sortReading?: SortReading,
  filters: 'compiled' | 'keys' = 'compiled',
): void {
  const query = { registry: ctx.registry, uid, access: ctx.access };
  if (rawQuery.filters !== undefined)
    (filters === 'keys' ? checkFilters : compileFilters)({ ...query, filters: rawQuery.filters });
  if (rawQuery.sort !== undefined) compileSort({ ...query, sort: rawQuery.sort, reading: sortReading });
}

/**
 * What `readEntry` checks of a query (the same 400s, and its parsed selection kept for the read
 * that follows), without reading: a write checks the query its answer will be read with before
 * it writes anything.
 */
export function checkEntryQuery(ctx: ReadContext, uid: string, rawQuery: ReadQuery): void {
  const schema = requireContentType(ctx, uid);
  validateUnused(ctx, uid, rawQuery, { directions: 'ignored' }, 'keys');
  memoizedSelection(ctx, schema, rawQuery, askedPublicationState(rawQuery.publicationState));
  parsePublicationState(rawQuery.publicationState);
}

/**
 * Checks every read parameter of a query without reading (Strapi's `validateQuery`): filters and
 * sort at any depth, fields, populate with what it nests; a bad one throws the 400 the read would.
 */
export function validateReadQuery(ctx: SelectionContext, uid: string, rawQuery: ReadQuery): void {
  // Strapi's validator checks the sort's keys; a direction fails only where a read converts it
  validateUnused(ctx, uid, rawQuery, { directions: 'ignored' }, 'keys');
  const schema = ctx.registry.contentType(uid);
  if (schema) parseSelection(ctx, schema, rawQuery, 'live');
}

type SelectionContext = Pick<ReadContext, 'registry' | 'access' | 'config'>;

function parseSelection(
  ctx: SelectionContext,
  schema: ContentType,
  rawQuery: ReadQuery,
  state: PublicationState,
  param = 'populate',
): EntrySelection {
  let names = 0;
  const populateContext: PopulateContext = {
    registry: ctx.registry,
    access: ctx.access,
    limits: limits(ctx),
    nextName: () => String(names++),
    guard: new PopulateGuard({
      maxDepth: ctx.config.api.rest.maxPopulateDepth,
      maxRelations: ctx.config.api.rest.maxPopulateRelations,
    }),
  };
  // an empty `fields=` is no parameter to Strapi's validator (its database layer fails on it):
  // refused after populate is checked
  const emptyFields = rawQuery.fields === '';
  const fields = emptyFields ? [] : parseFields(schema, rawQuery.fields, ctx.access.readsPrivate);
  const populate = parsePopulate(
    populateContext,
    schema,
    rawQuery.populate,
    state,
    param === 'populate' ? param : `${param}[populate]`,
  );
  if (emptyFields) parseFields(schema, rawQuery.fields, ctx.access.readsPrivate);
  return { uid: schema.uid, fields, populate };
}

/** Selections memoized per registry and REST settings (both fixed for a service's lifetime). */
const memos = new WeakMap<object, WeakMap<object, SelectionMemo>>();

/** `parseSelection` of the caller's own query, memoized by its shape (see selection-memo.ts). */
function memoizedSelection(
  ctx: SelectionContext,
  schema: ContentType,
  rawQuery: ReadQuery,
  state: PublicationState,
): MemoizedSelection {
  let byConfig = memos.get(ctx.registry);
  if (!byConfig) memos.set(ctx.registry, (byConfig = new WeakMap()));
  let memo = byConfig.get(ctx.config.api.rest);
  if (!memo) byConfig.set(ctx.config.api.rest, (memo = new SelectionMemo()));
  const key = selectionKey(state, ctx.access.readsPrivate, rawQuery.fields, rawQuery.populate);
  return memo.selection(key === undefined ? undefined : `${schema.uid} ${key}`, ctx.access, (access) =>
    parseSelection({ ...ctx, access }, schema, rawQuery, state),
  );
}

type PlannedSelection = NonNullable<MemoizedSelection['planned']>;

/** The populate `$lookup`s and the `$project` of a selection, planned once per memoized one. */
function plannedStages(ctx: ReadContext, chosen: MemoizedSelection): PlannedSelection {
  return (chosen.planned ??= {
    stages: populateStages(planContext(ctx), chosen.selection.populate).map(constantStage),
    project: constantStage({ $project: projection(chosen.selection) }),
  });
}

/**
 * The selection a read answers and its planned stages: the memoized ones, unless populated
 * relations filter through other relations, whose filters are then answered first for this read
 * (plan/populate-filters.ts) and the stages planned from that copy.
 */
async function plannedRead(
  ctx: ReadContext,
  chosen: MemoizedSelection,
): Promise<{ selection: EntrySelection; planned: PlannedSelection }> {
  const pushed = await withPopulateFiltersPushedDown(chosen.selection, related(ctx));
  if (!pushed) return { selection: chosen.selection, planned: plannedStages(ctx, chosen) };
  return { selection: pushed, planned: plannedStages(ctx, { selection: pushed }) };
}

/** The queries relation filters are pushed down to, with the read's time budget. */
function related(ctx: ReadContext) {
  return relatedEntries((target, stages) => aggregate(ctx, target, stages));
}

function limits(ctx: SelectionContext): PaginationLimits {
  const rest = ctx.config.api.rest;
  return { defaultLimit: rest.defaultLimit, maxLimit: rest.maxLimit, withCount: rest.withCount };
}

function planContext(ctx: ReadContext): PlanContext {
  return {
    draftAndPublish: (uid) => ctx.registry.contentType(uid)?.draftAndPublish === true,
    collectionName: (uid) => ctx.registry.contentType(uid)?.collectionName ?? uid,
  };
}

/** How the polymorphic relations of a read are read (morph-populate.ts): with the caller's access and the read's time budget. */
function morphReader(ctx: ReadContext): MorphReader {
  return {
    registry: ctx.registry,
    access: ctx.access,
    plan: planContext(ctx),
    select: (schema, spec, state, param) =>
      parseSelection(ctx, schema, { fields: spec.fields, populate: spec.populate }, state, param),
    filter: (uid, filters) => compileFilters({ registry: ctx.registry, uid, access: ctx.access, filters }),
    read: (uid, pipeline) => aggregate(ctx, uid, pipeline),
  };
}

function requireContentType(ctx: ReadContext, uid: string): ContentType {
  const schema = ctx.registry.contentType(uid);
  if (!schema) throw new NotFoundError();
  return schema;
}

/** Each read carries the request's time budget (`api.rest.timeBudgetMs`) as maxTimeMS: no read can hold the database. */
async function aggregate(ctx: ReadContext, uid: string, pipeline: PipelineStage[]): Promise<Doc[]> {
  const budget = ctx.config.api.rest.timeBudgetMs;
  return (await ctx.models.aggregate(uid, pipeline, budget > 0 ? budget : undefined)) as Doc[];
}

/** The entries a read's pipeline yields, their populated files signed when the upload provider is private. */
async function entryDocs(ctx: ReadContext, uid: string, pipeline: PipelineStage[], selection: EntrySelection) {
  const docs = await aggregate(ctx, uid, pipeline);
  if (populatesMorph(selection)) await resolveMorphs(morphReader(ctx), docs, selection);
  await signPopulatedMedia(docs, selection, ctx.mediaUrlSigner?.());
  return docs;
}

async function entryDoc(ctx: ReadContext, uid: string, pipeline: PipelineStage[], selection: EntrySelection) {
  const doc = await aggregateFirst(ctx, uid, pipeline);
  if (doc && populatesMorph(selection)) await resolveMorphs(morphReader(ctx), [doc], selection);
  if (doc) await signPopulatedMedia([doc], selection, ctx.mediaUrlSigner?.());
  return doc;
}

/** `aggregate` for a pipeline that yields at most one document: one command, no cursor. */
async function aggregateFirst(ctx: ReadContext, uid: string, pipeline: PipelineStage[]): Promise<Doc | undefined> {
  const budget = ctx.config.api.rest.timeBudgetMs;
  return ctx.models.aggregateFirst(uid, pipeline, budget > 0 ? budget : undefined);
}

async function count(ctx: ReadContext, uid: string, filtering: PipelineStage[]): Promise<number> {
  const row = await aggregateFirst(ctx, uid, [...filtering, { $count: 'n' }]);
  return row && typeof row.n === 'number' ? row.n : 0;
}
