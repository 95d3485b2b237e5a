/**
 * A resolver's selection set → the REST read query (`fields` + `populate` tree with `filters`,
 * `sort`, `pagination`, `publicationState` per level), so a nested GraphQL query runs as ONE
 * aggregation in the query engine. Fragments and inline fragments are followed; `@skip`/`@include`
 * are honoured. Nested field resolvers then only read what the parent already holds.
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isObjectType,
  isUnionType,
  Kind,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { Registry, Schema } from '../../content-types/index.js';
import type { RawQuery } from '../../operations/index.js';
import { paginationWindow, parsePagination, type PaginationLimits } from '../../query/parse/pagination.js';
import { toRestFilters } from './filters.js';
import { typeName } from './naming.js';
import { plain } from './values.js';
import { UNRESTRICTED, type QueryAccess } from '../../query/access.js';
import { operationContext, pageLimits, type GraphQLContext } from './context.js';

interface Walk {
  info: GraphQLResolveInfo;
  registry: Registry;
  /** relations to types the caller cannot read are not asked for (their fields answer null) */
  access: QueryAccess;
  /** page limits of nested lists (GraphQL's defaultLimit, maxLimit ∧ amountLimit) */
  limits: PaginationLimits;
}

/** The fields selected on `type` by these nodes' sub-selections, fragments flattened, grouped by field name. */
export function subFields(walk: Walk, nodes: readonly FieldNode[], type: GraphQLNamedType): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  for (const node of nodes) if (node.selectionSet) collect(walk, node.selectionSet, type, out, new Set());
  return out;
}

function included(walk: Walk, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  const vars = walk.info.variableValues;
  if (getDirectiveValues(GraphQLSkipDirective, node, vars)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
}

function collect(
  walk: Walk,
  set: SelectionSetNode,
  type: GraphQLNamedType,
  out: Map<string, FieldNode[]>,
  seen: Set<string>,
): void {
  for (const selection of set.selections) {
    if (!included(walk, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      const list = out.get(selection.name.value) ?? [];
      list.push(selection);
      out.set(selection.name.value, list);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!selection.typeCondition || selection.typeCondition.name.value === type.name)
        collect(walk, selection.selectionSet, type, out, seen);
    } else {
      const name = selection.name.value;
      const fragment = walk.info.fragments[name];
      if (!fragment || seen.has(name) || fragment.typeCondition.name.value !== type.name) continue;
      seen.add(name);
      collect(walk, fragment.selectionSet, type, out, seen);
    }
  }
}

/** Inline fragments / fragment spreads per member type of a union (dynamic zones). */
function unionMembers(
  walk: Walk,
  nodes: readonly FieldNode[],
  memberNames: readonly string[],
): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  for (const member of memberNames) {
    const type = walk.info.schema.getType(member);
    if (!type) continue;
    const fields = subFields(walk, nodes, type);
    const all = [...fields.values()].flat();
    if (all.length > 0) out.set(member, all);
  }
  return out;
}

function fieldOf(type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(type) ? type.getFields()[name] : undefined;
}

function argsOf(walk: Walk, type: GraphQLNamedType, node: FieldNode): Record<string, unknown> {
  const def = fieldOf(type, node.name.value);
  return def ? (plain(getArgumentValues(def, node, walk.info.variableValues)) as Record<string, unknown>) : {};
}

/** The object type reached through `field` of `type` (lists and non-null unwrapped). */
function childType(type: GraphQLNamedType, field: string): GraphQLNamedType | undefined {
  const def = fieldOf(type, field);
  return def ? getNamedType(def.type) : undefined;
}

/** `fields` and `populate` of one level of attributes (an entity's `attributes` or a component). */
function levelQuery(
  walk: Walk,
  schema: Schema,
  type: GraphQLNamedType,
  nodes: readonly FieldNode[],
): { fields: string[]; populate: Record<string, unknown> } {
  const fields: string[] = [];
  const populate: Record<string, unknown> = {};
  for (const [name, fieldNodes] of subFields(walk, nodes, type)) {
    const attribute = schema.attributes[name];
    const first = fieldNodes[0];
    if (!attribute || !first) continue;
    const target = childType(type, name);
    if (!target) continue;
    if (attribute.type === 'relation' || attribute.type === 'media') {
      const relatedUid = schema.relations[name]?.target;
      // media are readable with their entry (Strapi restricts relations only)
      const readable = attribute.type === 'media' || (relatedUid !== undefined && walk.access.canRead(relatedUid));
      const related = relatedUid && readable ? walk.registry.schema(relatedUid) : undefined;
      const multiple = schema.relations[name]?.multiple === true;
      if (related)
        populate[name] = {
          ...relationArgs(walk, related, argsOf(walk, type, first), multiple),
          ...responseQuery(walk, related, target, fieldNodes),
        };
    } else if (attribute.type === 'component') {
      const component = walk.registry.schema(attribute.component);
      if (component) populate[name] = levelSpec(levelQuery(walk, component, target, fieldNodes));
    } else if (attribute.type === 'dynamiczone') {
      if (!isUnionType(target)) continue;
      const on: Record<string, unknown> = {};
      const byType = new Map(
        attribute.components.flatMap((uid) => {
          const component = walk.registry.component(uid);
          return component ? [[typeName(component), component] as const] : [];
        }),
      );
      for (const [member, memberNodes] of unionMembers(
        walk,
        fieldNodes,
        target.getTypes().map((t) => t.name),
      )) {
        const component = byType.get(member);
        const memberType = walk.info.schema.getType(member);
        if (component && memberType)
          on[component.uid] = levelSpec(levelQueryOfFields(walk, component, memberType, memberNodes));
      }
      populate[name] = Object.keys(on).length > 0 ? { on } : true;
    } else {
      fields.push(name);
    }
  }
  return { fields, populate };
}

/** Like levelQuery, for field nodes already selected on the level's type (union members). */
function levelQueryOfFields(
  walk: Walk,
  schema: Schema,
  type: GraphQLNamedType,
  fieldNodes: FieldNode[],
): { fields: string[]; populate: Record<string, unknown> } {
  const wrapper: FieldNode = {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: '__member' },
    selectionSet: { kind: Kind.SELECTION_SET, selections: fieldNodes },
  };
  return levelQuery(walk, schema, type, [wrapper]);
}

function levelSpec(level: { fields: string[]; populate: Record<string, unknown> }): Record<string, unknown> {
  return {
    fields: level.fields.length > 0 ? level.fields : ['id'],
    ...(Object.keys(level.populate).length > 0 ? { populate: level.populate } : {}),
  };
}

/**
 * A relation field's arguments as a populate level's `filters`, `sort`, `publicationState` and
 * window. As in Strapi v4, a to-many list is always paginated (`pagination = {}`: the first
 * `defaultLimit` entries), capped by maxLimit/amountLimit; the window is given as `start`/`limit`
 * because a relation collection has no meta, so nothing is counted.
 */
function relationArgs(walk: Walk, related: Schema, args: Record<string, unknown>, multiple: boolean): RawQuery {
  const out: RawQuery = {};
  if (args.filters !== undefined && args.filters !== null)
    out.filters = toRestFilters(walk.registry, related, args.filters);
  if (Array.isArray(args.sort) && args.sort.length > 0) out.sort = args.sort;
  if (typeof args.publicationState === 'string') out.publicationState = args.publicationState.toLowerCase();
  if (multiple) {
    const window = paginationWindow(parsePagination(args.pagination ?? {}, walk.limits));
    out.start = window.skip;
    out.limit = window.limit;
  }
  return out;
}

/**
 * `fields` + `populate` for an `…EntityResponse` / `…ResponseCollection` selection: its
 * `data { attributes { … } }` levels.
 */
function responseQuery(
  walk: Walk,
  schema: Schema,
  responseType: GraphQLNamedType,
  nodes: readonly FieldNode[],
): RawQuery {
  const data = subFields(walk, nodes, responseType).get('data') ?? [];
  const entityType = childType(responseType, 'data');
  if (!entityType || data.length === 0) return { fields: ['id'] };
  const attributes = subFields(walk, data, entityType).get('attributes') ?? [];
  const attributesType = childType(entityType, 'attributes');
  if (!attributesType || attributes.length === 0) return { fields: ['id'] };
  return levelSpec(levelQuery(walk, schema, attributesType, attributes));
}

/** The read query of a top-level resolver: `fields` and `populate` from its selection set. */
export function selectionQuery(
  info: GraphQLResolveInfo,
  registry: Registry,
  schema: Schema,
  ctx: GraphQLContext,
): RawQuery {
  const walk: Walk = { info, registry, limits: pageLimits(ctx), access: operationContext(ctx).access };
  return responseQuery(walk, schema, getNamedType(info.returnType), info.fieldNodes);
}

/** Whether `meta { pagination { total | pageCount } }` is selected (only then is a count run). */
export function needsTotal(info: GraphQLResolveInfo, registry: Registry): boolean {
  const walk: Walk = {
    info,
    registry,
    limits: { defaultLimit: 1, maxLimit: -1, withCount: false },
    access: UNRESTRICTED,
  };
  const type = getNamedType(info.returnType);
  const meta = subFields(walk, info.fieldNodes, type).get('meta') ?? [];
  const metaType = childType(type, 'meta');
  if (!metaType || meta.length === 0) return false;
  const pagination = subFields(walk, meta, metaType).get('pagination') ?? [];
  const paginationType = childType(metaType, 'pagination');
  if (!paginationType || pagination.length === 0) return false;
  const selected = subFields(walk, pagination, paginationType);
  return selected.has('total') || selected.has('pageCount');
}
