import {
  isMorph,
  isPrivate,
  isScalar,
  type Component,
  type MorphAttribute,
  type Registry,
  type Schema,
} from '../../content-types/index.js';
import { PaginationError, ValidationError } from '../../errors/index.js';
import type { QueryAccess } from '../access.js';
import { compileFilters } from '../filters/index.js';
import { pushNegations } from '../filters/negate.js';
import { parseFilters } from '../filters/parse.js';
import { anyNode, type FilterNode } from '../filters/tree.js';
import { asList, isPlainObject, looseNumber } from '../qs-values.js';
import type {
  ComponentSelection,
  ComponentWindow,
  EntrySelection,
  MorphPopulate,
  PopulateMap,
  PopulateNode,
  PublicationState,
  RelationPopulate,
} from '../read-tree.js';
import { compileSort } from '../sort/index.js';
import { parseSort, type SortKey } from '../sort/parse.js';
import { parseFields } from './fields.js';
import { paginationWindow, parsePagination, type PaginationLimits } from './pagination.js';
import { withSortedFields } from './sorted-fields.js';
import type { PopulateGuard } from './populate-limits.js';
import { parsePublicationState } from './publication-state.js';

export interface PopulateContext {
  registry: Registry;
  access: QueryAccess;
  limits: PaginationLimits;
  /** names the `$lookup` output fields of one query uniquely */
  nextName(): string;
  /** the request's populate size limits */
  guard: PopulateGuard;
  /** nesting level of the attributes being parsed (0 above the top level) */
  depth?: number;
}

/** Strapi casts a populate value given as text to a boolean (`Boolean(text)` past these): `populate[x]=` is false too. */
const FALSE_STRINGS = new Set(['false', 'f', '0', '']);

/** The keys of a populate level Strapi checks against its schema. */
const CHECKED_KEYS = ['fields', 'filters', 'sort'];

/**
 * Internal callers (GraphQL aliases) may populate one attribute twice under different output keys:
 * a populate request object carrying this key names the attribute it reads. A query string can
 * never carry it.
 */
export const POPULATE_ATTRIBUTE = Symbol('populate attribute');

/** One populate request on an attribute: `true` (defaults) or Strapi's object form. */
type PopulateRequest = true | (Record<string, unknown> & { [POPULATE_ATTRIBUTE]?: string });

/**
 * `populate` in every form Strapi v4 accepts (`*`, `a,b`, `[0]=a`, `seo.metaSocial`,
 * `[a]=*|true`, `[a][populate|fields|filters|sort|count|pagination|start|limit|publicationState|on]`)
 * as a validated tree. Unknown keys and scalar attributes are ignored (as Strapi does); relations
 * to types the caller cannot read are left out, whatever the request asks of them.
 */
export function parsePopulate(
  ctx: PopulateContext,
  schema: Schema,
  raw: unknown,
  state: PublicationState,
  param = 'populate',
): PopulateMap {
  const requests = normalize(withoutOptionKeys(schema, raw), param);
  const map: PopulateMap = {};
  if (requests !== '*' && requests.size === 0) return map;
  const level: PopulateContext = { ...ctx, depth: ctx.guard.nextLevel(ctx.depth ?? 0, param) };
  const entries: [string, PopulateRequest][] =
    requests === '*'
      ? Object.keys(schema.attributes).map((name): [string, PopulateRequest] => [name, true])
      : [...requests.entries()];
  for (const [key, request] of entries) {
    const aliased = request === true ? undefined : request[POPULATE_ATTRIBUTE];
    const name = typeof aliased === 'string' ? aliased : key;
    const node = populateAttribute(level, schema, name, request, state, `${param}[${name}]`);
    if (node) map[key] = node;
  }
  return map;
}

function populateAttribute(
  ctx: PopulateContext,
  schema: Schema,
  name: string,
  request: PopulateRequest,
  state: PublicationState,
  param: string,
): PopulateNode | null {
  const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
  // private: left out for clients; app code populates it (Strapi's entity service and query engine do)
  if (!attribute || (isPrivate(attribute) && !ctx.access.readsPrivate)) return null;
  const spec = request === true ? {} : request;
  if (isMorph(attribute)) return populateMorph(ctx, schema.uid, name, attribute, spec, state, param);
  switch (attribute.type) {
    case 'relation':
    case 'media': {
      const relation = schema.relations[name];
      if (!relation) return null;
      // a relation the caller cannot read is left out whatever it asks of it, as the seed says and
      // Strapi 4.26 does (its sanitizer drops the whole populate); media are not restricted by the
      // file type's permissions (Strapi checks `find` on relations only)
      if (!relation.media && !ctx.access.canRead(relation.target)) return null;
      return populateRelation(ctx, name, relation, spec, state, param);
    }
    case 'component': {
      const component = ctx.registry.component(attribute.component);
      if (!component) return null;
      return {
        kind: 'component',
        attribute: name,
        repeatable: attribute.repeatable === true,
        count: parseCount(spec.count, param),
        selection: componentSelection(ctx, component, spec, state, param),
      };
    }
    case 'dynamiczone':
      return {
        kind: 'dynamiczone',
        attribute: name,
        components: zoneSelections(ctx, attribute.components, spec, state, param),
      };
    default:
      return null;
  }
}

/**
 * The components of a dynamic zone: with `on` (Strapi's fragments), only the listed components,
 * each shaped by its own fragment (`true`: every field); without, every component of the zone with
 * the zone's `populate`.
 */
function zoneSelections(
  ctx: PopulateContext,
  uids: string[],
  spec: Record<string, unknown>,
  state: PublicationState,
  param: string,
): Record<string, ComponentSelection> {
  const components: Record<string, ComponentSelection> = {};
  const raw = spec.on;
  // an `on` that is not an object lists no component (Strapi reads its entries)
  const on = raw === undefined || raw === null ? raw : isPlainObject(raw) ? raw : {};
  const idOnly = on === undefined || on === null ? zoneOptions(spec) : false;
  // a component the app does not have, or one the zone does not list, matches no item; Strapi
  // ignores the first unless its fragment names fields, filters or sort (checked against no
  // schema, a 500 there)
  for (const [uid, fragment] of Object.entries(on ?? {}))
    if (!ctx.registry.component(uid) && isPlainObject(fragment) && CHECKED_KEYS.some((key) => key in fragment))
      throw new ValidationError(`Invalid parameter ${param}[on][${uid}]: no such component`, {});
  for (const uid of uids) {
    const component = ctx.registry.component(uid);
    if (!component) continue;
    if (on === undefined || on === null) {
      const selection = componentSelection(ctx, component, { populate: spec.populate }, state, param);
      // the zone's start/limit: Strapi reads each component's table with them, so they apply to each component's own
      const window = componentWindow(spec, param);
      const filter = spec.filters === undefined ? null : componentFilter(ctx, component, spec.filters);
      if (filter && anyNode(filter, (node) => node.kind === 'condition' && node.path !== 'id'))
        throw new ValidationError(`Invalid parameter ${firstConditionKey(filter)}`, {});
      components[uid] = { ...selection, ...(idOnly ? { fields: [], populate: {} } : {}), filter, window };
      continue;
    }
    if (!Object.hasOwn(on, uid)) continue;
    const fragment = on[uid];
    const fragmentSpec = isPlainObject(fragment) ? fragment : {};
    components[uid] = componentSelection(ctx, component, fragmentSpec, state, `${param}[on][${uid}]`);
  }
  return components;
}

/**
 * `fields` and `sort` of a dynamic zone's populate without `on`: Strapi checks them against the
 * zone itself, whose only attribute is `id` (anything else is `Invalid parameter <name>`); `sort`
 * is then not applied. True when `fields` keeps the items to their id (and `__component`).
 */
function zoneOptions(spec: Record<string, unknown>): boolean {
  for (const key of spec.sort === undefined ? [] : parseSort(spec.sort)) {
    const [name = ''] = key.path;
    if (name !== 'id' || key.path.length > 1) throw new ValidationError(`Invalid parameter ${name}`, {});
  }
  if (spec.fields === undefined) return false;
  const items = typeof spec.fields === 'string' ? [spec.fields] : (asList(spec.fields) ?? []);
  const names = items.map((item) => (typeof item === 'string' ? item.trim() : ''));
  for (const name of names)
    if (name !== 'id' && name !== '*') throw new ValidationError(`Invalid parameter ${name}`, {});
  return !names.includes('*');
}

/** The attribute a filter's first condition names (a component's filter: its path). */
function firstConditionKey(node: FilterNode): string {
  let key = '';
  anyNode(node, (item) => {
    if (item.kind !== 'condition') return false;
    key = item.path;
    return true;
  });
  return key;
}

/** `populate[x][count]`, read as Strapi reads it (a boolean, or `true/t/1`, `false/f/0`; empty: not asked). */
function parseCount(raw: unknown, param: string): boolean {
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 0) return false;
  if (raw === true || raw === 'true' || raw === 't' || raw === '1' || raw === 1) return true;
  if (raw === 'false' || raw === 'f' || raw === '0') return false;
  throw new ValidationError(`Invalid parameter ${param}[count]: expected true or false`, {});
}

/**
 * A polymorphic relation: what is read of each linked type is parsed once the types are known
 * (morph-populate.ts). A `morphOne`/`morphMany` whose target the caller cannot read is left out.
 */
function populateMorph(
  ctx: PopulateContext,
  owner: string,
  attribute: string,
  morph: MorphAttribute,
  spec: Record<string, unknown>,
  inherited: PublicationState,
  param: string,
): MorphPopulate | null {
  if (morph.target !== undefined && !ctx.access.canRead(morph.target)) return null;
  ctx.guard.relation(param);
  if (spec.on !== undefined && spec.on !== null && !isPlainObject(spec.on))
    throw new ValidationError(`Invalid parameter ${param}[on]: expected an object of content-type uids`, {});
  return {
    kind: 'morph',
    attribute,
    relation: morph.relation,
    owner,
    ...(morph.target === undefined ? {} : { target: morph.target, morphBy: morph.morphBy }),
    request: spec,
    publicationState: parsePublicationState(spec.publicationState, inherited),
    param,
    as: `__m${ctx.nextName()}`,
  };
}

function populateRelation(
  ctx: PopulateContext,
  attribute: string,
  relation: RelationPopulate['relation'],
  spec: Record<string, unknown>,
  inherited: PublicationState,
  param: string,
): RelationPopulate | null {
  const target = ctx.registry.contentType(relation.target);
  if (!target) return null;
  ctx.guard.relation(param);
  const publicationState = parsePublicationState(spec.publicationState, inherited);
  const count = parseCount(spec.count, param);
  const query = { registry: ctx.registry, uid: target.uid, access: ctx.access };
  const filterInput = { ...query, filters: spec.filters };
  const filterStages = spec.filters === undefined ? [] : compileFilters(filterInput);
  const sort = spec.sort === undefined ? null : compileSort({ ...query, sort: spec.sort });
  const fields = parseFields(target, spec.fields, ctx.access.readsPrivate);
  const selection: EntrySelection = {
    uid: target.uid,
    // Strapi selects the attributes a populate sorts on with the ones it asks for (and answers them)
    fields: spec.fields === undefined || sort === null ? fields : withSortedFields(target, fields, spec.sort),
    populate: parsePopulate(ctx, target, spec.populate, publicationState, `${param}[populate]`),
  };
  const window = relationWindow(ctx, spec, param, relation.multiple);
  const name = ctx.nextName();
  // a count reads every related entry (Strapi ignores the window, the fields and the nested populate then)
  return {
    kind: 'relation',
    attribute,
    relation,
    count,
    selection: count ? { ...selection, fields: [], populate: {} } : selection,
    filterStages,
    // filters joining through a relation are compiled again per read, pushed down (plan/populate-filters.ts)
    pushDown: filterStages.some((stage) => '$lookup' in stage) ? filterInput : undefined,
    sort: count ? null : sort,
    publicationState,
    window: count ? null : window,
    as: `__p${name}`,
    countAs: `__c${name}`,
  };
}

/**
 * The window of a populated relation: `start`/`limit` (Strapi's), or `pagination` on a to-many
 * one (beyond Strapi, docs/strapi-deviations.md); on a to-one relation `pagination` is checked
 * and ignored, as Strapi ignores it (`populate[author][pagination][page]=2` answers the author).
 */
function relationWindow(
  ctx: PopulateContext,
  spec: Record<string, unknown>,
  param: string,
  multiple: boolean,
): RelationPopulate['window'] {
  const offset = nestedOffset(spec, param);
  if (spec.pagination !== undefined) {
    const meta = parsePagination(spec.pagination, ctx.limits);
    if (multiple) return { ...paginationWindow(meta), meta };
  }
  return offset;
}

/**
 * `populate[x][start|limit|page|pageSize]` as Strapi's nested populate reads them: mixing the
 * styles or a page / page size that is not an integer > 0 is its 400 PaginationError (they are
 * checked, but a page is not applied); a start or limit that is not a whole number (Strapi: 500)
 * is a 400; `limit` -1 or 0 means no limit. Start and limit apply per entry (Strapi: to the whole
 * populate query).
 */
function nestedOffset(spec: Record<string, unknown>, param: string): RelationPopulate['window'] {
  const given = (key: string) => spec[key] !== undefined && spec[key] !== null;
  if ((given('page') || given('pageSize')) && (given('start') || given('limit')))
    throw new PaginationError(
      'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
    );
  const page = String(spec.page);
  if (given('page') && !isPositiveInteger(looseNumber(spec.page)))
    throw new PaginationError(`Invalid 'page' parameter. Expected an integer > 0, received: ${page}`);
  if (given('pageSize') && !isPositiveInteger(looseNumber(spec.pageSize)))
    throw new PaginationError(`Invalid 'pageSize' parameter. Expected an integer > 0, received: ${page}`);
  if (!given('start') && !given('limit')) return null;
  const skip = given('start') ? looseNumber(spec.start) : 0;
  const limit = given('limit') ? looseNumber(spec.limit) : -1;
  if (!Number.isSafeInteger(skip) || skip < 0)
    throw new ValidationError(`Invalid parameter ${param}[start]: expected an integer >= 0`, {});
  if (!Number.isSafeInteger(limit) || limit < -1)
    throw new ValidationError(`Invalid parameter ${param}[limit]: expected an integer >= -1`, {});
  return { skip, limit: limit <= 0 ? null : limit, meta: null };
}

function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

function componentSelection(
  ctx: PopulateContext,
  component: Component,
  spec: Record<string, unknown>,
  state: PublicationState,
  param: string,
): ComponentSelection {
  const sort = spec.sort === undefined ? null : componentSort(component, spec.sort);
  const fields = parseFields(component, spec.fields, ctx.access.readsPrivate);
  return {
    uid: component.uid,
    fields: spec.fields === undefined || sort === null ? fields : withSortedFields(component, fields, spec.sort),
    populate: parsePopulate(ctx, component, spec.populate, state, `${param}[populate]`),
    filter: componentFilter(ctx, component, spec.filters),
    sort,
    window: componentWindow(spec, param),
  };
}

/** `populate[x][start|limit]` of components, read and checked as a relation's (a page is checked, not applied). */
function componentWindow(spec: Record<string, unknown>, param: string): ComponentWindow | null {
  const window = nestedOffset(spec, param);
  return window === null ? null : { skip: window.skip, limit: window.limit };
}

/**
 * `populate[x][filters]` of a component, applied to the components an entry holds (Strapi joins
 * them as rows): relations inside a component cannot be filtered there (a 400, never ignored).
 */
function componentFilter(
  ctx: Pick<PopulateContext, 'registry' | 'access'>,
  component: Component,
  raw: unknown,
): FilterNode | null {
  if (raw === undefined) return null;
  const tree = parseFilters({ registry: ctx.registry, access: ctx.access }, component, raw);
  if (!tree) return null;
  if (anyNode(tree, (node) => node.kind === 'relation'))
    throw new ValidationError(
      'Invalid parameter filters: relations inside a component cannot be filtered in populate',
      {},
    );
  return pushNegations(tree);
}

/**
 * A list of components' `filters` and `sort` checked as a populate reads them (a 400 on a bad one),
 * for GraphQL, where a bad argument of a component field fails that field only.
 */
export function checkComponentListArgs(
  ctx: Pick<PopulateContext, 'registry' | 'access'>,
  component: Component,
  args: { filters?: unknown; sort?: unknown },
): void {
  if (args.sort !== undefined) componentSort(component, args.sort);
  if (args.filters !== undefined) componentFilter(ctx, component, args.filters);
}

/** `populate[x][sort]` of a list of components: its own scalar attributes (and `id`). */
function componentSort(component: Component, raw: unknown): SortKey[] {
  const keys = parseSort(raw);
  for (const key of keys) {
    const [name = '', ...rest] = key.path;
    const attribute = Object.hasOwn(component.attributes, name) ? component.attributes[name] : undefined;
    const sortable = name === 'id' || (attribute !== undefined && isScalar(attribute) && !isPrivate(attribute));
    if (!sortable || rest.length > 0) throw new ValidationError(`Invalid parameter ${key.path.join('.')}`, {});
  }
  return keys;
}

/**
 * A populate object's `fields` and `sort` keys that name no attribute (`populate: { fields: ['*'],
 * seo: true }`, which projects write): Strapi 4.26 checks them against the level's schema as it
 * checks those parameters (`Invalid parameter <name>`), then populates nothing for them.
 */
function withoutOptionKeys(schema: Schema, raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  const options = ['fields', 'sort'].filter((key) => Object.hasOwn(raw, key) && !Object.hasOwn(schema.attributes, key));
  if (options.length === 0) return raw;
  if (options.includes('fields')) parseFields(schema, raw.fields);
  if (options.includes('sort'))
    for (const key of parseSort(raw.sort)) {
      const [name = ''] = key.path;
      const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
      if (name !== 'id' && (attribute === undefined || isPrivate(attribute)))
        throw new ValidationError(`Invalid parameter ${name}`, {});
    }
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !options.includes(key)));
}

/** The attributes a `populate` value names at its top level (`*`: all), for attributes a plugin answers itself. */
export function populatedNames(raw: unknown, param = 'populate'): '*' | string[] {
  const requests = normalize(raw, param);
  return requests === '*' ? '*' : [...requests.keys()];
}

/**
 * The populate value as `*` or attribute → request; dotted paths become nested requests. The text
 * `true` is a name, as in Strapi 4.26 (`populate=true` populates no attribute named so); only the
 * boolean, which app code may pass, is every attribute.
 */
function normalize(raw: unknown, param: string): '*' | Map<string, PopulateRequest> {
  const requests = new Map<string, PopulateRequest>();
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 'false') return requests;
  if (raw === '*' || raw === true) return '*';
  // Strapi splits the string and each item of the list on commas; a `*` among the names populates
  // nothing, and a whole item `*` of the list form is refused (Strapi: 500)
  const fromString = typeof raw === 'string';
  const list = fromString ? [raw] : asList(raw);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string' || (!fromString && item.trim() === '*'))
        throw new ValidationError(`Invalid parameter ${param}`, {});
      for (const piece of item.split(',')) {
        const name = piece.trim();
        if (name !== '' && name !== '*') addPath(requests, name.split('.'), true);
      }
    }
    return requests;
  }
  if (!isPlainObject(raw)) throw new ValidationError(`Invalid parameter ${param}`, {});
  for (const [key, value] of Object.entries(raw)) {
    // Strapi casts a string value to a boolean (`*`, `true`, any other text: populate; `false`, `f`, `0`, empty: not)
    if (value === false || (typeof value === 'string' && FALSE_STRINGS.has(value))) continue;
    if (value === true || typeof value === 'string') addPath(requests, key.split('.'), true);
    else if (isPlainObject(value)) addPath(requests, key.split('.'), withoutNulls(value));
    else throw new ValidationError(`Invalid parameter ${param}[${key}]`, {});
  }
  return requests;
}

/**
 * A populate level without the keys given no value (`populate[author][fields]`, qs's strict
 * null): Strapi's conversion skips what is nil (`if (fields)`, `isNil(page)`).
 */
function withoutNulls(spec: Record<string, unknown>): Record<string, unknown> {
  if (!Object.values(spec).includes(null)) return spec;
  // a copy keeps the symbol keys internal callers set (POPULATE_ATTRIBUTE)
  const copy = { ...spec };
  for (const [key, value] of Object.entries(spec)) if (value === null) delete copy[key];
  return copy;
}

/** Adds a dotted path; it stops before a `*` segment (`author.*` populates the author only, as in Strapi). */
function addPath(requests: Map<string, PopulateRequest>, dotted: string[], leaf: PopulateRequest): void {
  const star = dotted.indexOf('*');
  const path = star === -1 ? dotted : dotted.slice(0, star);
  const [head, ...rest] = path;
  if (head === undefined || head === '') return;
  const request = rest.length === 0 ? leaf : { populate: [rest.join('.')] };
  const existing = requests.get(head);
  if (existing === undefined || existing === true) {
    requests.set(head, request);
    return;
  }
  if (request === true) return;
  if (existing.populate === '*' || request.populate === '*') {
    requests.set(head, { ...existing, ...request, populate: '*' });
    return;
  }
  const populate = [...nestedList(existing.populate), ...nestedList(request.populate)];
  requests.set(head, { ...existing, ...request, populate });
}

/** A nested `populate` value as a list of requests to merge (`'*'` and strings stay items). */
function nestedList(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(',');
  return asList(value) ?? [value];
}
