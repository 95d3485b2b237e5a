import { isPrivate, type Component, type ContentType, type Registry, type Schema } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { QueryAccess } from '../access.js';
import { compileFilters } from '../filters/index.js';
import { asList, isPlainObject } from '../qs-values.js';
import type {
  ComponentSelection,
  EntrySelection,
  PopulateMap,
  PopulateNode,
  PublicationState,
  RelationPopulate,
} from '../read-tree.js';
import { compileSort } from '../sort/index.js';
import { parseFields } from './fields.js';
import { integer, paginationWindow, parsePagination, type PaginationLimits } from './pagination.js';
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

const FALSE_STRINGS = new Set(['false', 'f', '0']);

/** One populate request on an attribute: `true` (defaults) or Strapi's object form. */
type PopulateRequest = true | Record<string, unknown>;

/**
 * `populate` in every form Strapi v4 accepts (`*`, `a,b`, `[0]=a`, `seo.metaSocial`,
 * `[a]=*|true`, `[a][populate|fields|filters|sort|pagination|start|limit|publicationState|on]`)
 * as a validated tree. Unknown keys and scalar attributes are ignored (as Strapi does); relations
 * to types the caller cannot read are left out, and asking them for fields, filters, sort or
 * populate is a 400.
 */
export function parsePopulate(
  ctx: PopulateContext,
  schema: Schema,
  raw: unknown,
  state: PublicationState,
  param = 'populate',
): PopulateMap {
  const requests = normalize(raw, param);
  const map: PopulateMap = {};
  if (requests !== '*' && requests.size === 0) return map;
  const level: PopulateContext = { ...ctx, depth: ctx.guard.nextLevel(ctx.depth ?? 0, param) };
  const entries: [string, PopulateRequest][] =
    requests === '*'
      ? Object.keys(schema.attributes).map((name): [string, PopulateRequest] => [name, true])
      : [...requests.entries()];
  for (const [name, request] of entries) {
    const node = populateAttribute(level, schema, name, request, state, `${param}[${name}]`);
    if (node) map[name] = node;
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
  if (!attribute || isPrivate(attribute)) return null;
  const spec = request === true ? {} : request;
  switch (attribute.type) {
    case 'relation':
    case 'media': {
      const relation = schema.relations[name];
      if (!relation) return null;
      // media are not restricted by the file type's permissions (Strapi checks `find` on relations only)
      if (!relation.media && !ctx.access.canRead(relation.target)) {
        // left out, as the seed says; but asking it for fields, filters or sort is a 400: an
        // answer must never depend on data the caller cannot read, nor pretend it applied them
        const asked = ['fields', 'filters', 'sort', 'populate'].find((key) => spec[key] !== undefined);
        if (asked)
          throw new ValidationError(
            `Invalid parameter ${param}[${asked}]: the caller cannot read ${relation.target}`,
            {},
          );
        return null;
      }
      return populateRelation(ctx, relation, spec, state, param);
    }
    case 'component': {
      const component = ctx.registry.component(attribute.component);
      if (!component) return null;
      return {
        kind: 'component',
        repeatable: attribute.repeatable === true,
        selection: componentSelection(ctx, component, spec, state, param),
      };
    }
    case 'dynamiczone': {
      const components: Record<string, ComponentSelection> = {};
      const on = spec.on;
      if (on !== undefined && !isPlainObject(on)) throw new ValidationError(`Invalid parameter ${param}[on]`, {});
      for (const uid of attribute.components) {
        const component = ctx.registry.component(uid);
        if (!component) continue;
        const fragment = on?.[uid];
        const componentSpec = isPlainObject(fragment) ? fragment : { populate: spec.populate };
        components[uid] = componentSelection(ctx, component, componentSpec, state, `${param}[on][${uid}]`);
      }
      return { kind: 'dynamiczone', components };
    }
    default:
      return null;
  }
}

function populateRelation(
  ctx: PopulateContext,
  relation: RelationPopulate['relation'],
  spec: Record<string, unknown>,
  inherited: PublicationState,
  param: string,
): RelationPopulate | null {
  const target = ctx.registry.contentType(relation.target);
  if (!target) return null;
  ctx.guard.relation(param);
  const publicationState = parsePublicationState(spec.publicationState, inherited);
  const selection: EntrySelection = {
    uid: target.uid,
    fields: parseFields(target, spec.fields),
    populate: parsePopulate(ctx, target, spec.populate, publicationState, `${param}[populate]`),
  };
  const query = { registry: ctx.registry, uid: target.uid, access: ctx.access };
  const filterStages = spec.filters === undefined ? [] : compileFilters({ ...query, filters: spec.filters });
  const sort = spec.sort === undefined ? null : compileSort({ ...query, sort: spec.sort });
  const name = ctx.nextName();
  return {
    kind: 'relation',
    relation,
    selection,
    filterStages,
    sort,
    publicationState,
    window: relationWindow(ctx, spec, param),
    as: `__p${name}`,
    countAs: `__c${name}`,
  };
}

function relationWindow(
  ctx: PopulateContext,
  spec: Record<string, unknown>,
  param: string,
): RelationPopulate['window'] {
  if (spec.pagination !== undefined) {
    const meta = parsePagination(spec.pagination, ctx.limits, `${param}[pagination]`);
    return { ...paginationWindow(meta), meta };
  }
  if (spec.start === undefined && spec.limit === undefined) return null;
  const skip = Math.max(0, integer(spec.start, 0, `${param}[start]`));
  const limit = integer(spec.limit, -1, `${param}[limit]`);
  return { skip, limit: limit < 0 ? null : Math.max(1, limit), meta: null };
}

function componentSelection(
  ctx: PopulateContext,
  component: Component | ContentType,
  spec: Record<string, unknown>,
  state: PublicationState,
  param: string,
): ComponentSelection {
  return {
    uid: component.uid,
    fields: parseFields(component, spec.fields),
    populate: parsePopulate(ctx, component, spec.populate, state, `${param}[populate]`),
  };
}

/** The populate value as `*` or attribute → request; dotted paths become nested requests. */
function normalize(raw: unknown, param: string): '*' | Map<string, PopulateRequest> {
  const requests = new Map<string, PopulateRequest>();
  if (raw === undefined || raw === '' || raw === false || raw === 'false') return requests;
  if (raw === '*' || raw === true || raw === 'true') return '*';
  const list = typeof raw === 'string' ? raw.split(',') : asList(raw);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string') throw new ValidationError(`Invalid parameter ${param}`, {});
      if (item.trim() === '*') return '*';
      if (item.trim() !== '') addPath(requests, item.trim().split('.'), true);
    }
    return requests;
  }
  if (!isPlainObject(raw)) throw new ValidationError(`Invalid parameter ${param}`, {});
  for (const [key, value] of Object.entries(raw)) {
    // Strapi casts a string value to a boolean (`*`, `true`, any other text: populate; `false`, `f`, `0`: not)
    if (value === false || (typeof value === 'string' && FALSE_STRINGS.has(value))) continue;
    if (value === true || typeof value === 'string') addPath(requests, key.split('.'), true);
    else if (isPlainObject(value)) addPath(requests, key.split('.'), value);
    else throw new ValidationError(`Invalid parameter ${param}[${key}]`, {});
  }
  return requests;
}

function addPath(requests: Map<string, PopulateRequest>, path: string[], leaf: PopulateRequest): void {
  const [head, ...rest] = path;
  if (head === undefined || head === '') return;
  const request = rest.length === 0 ? leaf : { populate: [rest.join('.')] };
  const existing = requests.get(head);
  if (existing === undefined || existing === true) {
    requests.set(head, request);
    return;
  }
  if (request === true) return;
  const populate = [...nestedList(existing.populate), ...nestedList(request.populate)];
  requests.set(head, { ...existing, ...request, populate });
}

/** A nested `populate` value as a list of requests to merge (`'*'` and strings stay items). */
function nestedList(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(',');
  return asList(value) ?? [value];
}
