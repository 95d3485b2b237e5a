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
  type GraphQLUnionType,
  type SelectionSetNode,
} from 'graphql';
import { isMorph, UPLOAD_FILE_UID, type Registry, type Schema } from '../../content-types/index.js';
import type { RawQuery } from '../../operations/index.js';
import { toRestFilters } from './filters.js';
import { graphqlWindow, type GraphQLPageLimits } from './pagination.js';
import { typeName } from './naming.js';
import { plain } from './values.js';
import { UNRESTRICTED, type QueryAccess } from '../../query/access.js';
import { checkComponentListArgs, POPULATE_ATTRIBUTE, validateUnused } from '../../query/index.js';
import { isAppError } from '../../errors/index.js';
import { operationContext, pageLimits, type GraphQLContext } from './context.js';

interface Walk {
  info: GraphQLResolveInfo;
  registry: Registry;
  /** relations to types the caller cannot read are not asked for (their fields answer null) */
  access: QueryAccess;
  /** page limits of nested lists (GraphQL's defaultLimit, maxLimit ∧ amountLimit) */
  limits: GraphQLPageLimits;
  /** where a relation field whose arguments are refused records its error (see GraphQLContext) */
  fieldErrors?: WeakMap<FieldNode, Error>;
}

/** The fields selected on `type` by these nodes' sub-selections, fragments flattened, grouped by field name. */
export function subFields(walk: Walk, nodes: readonly FieldNode[], type: GraphQLNamedType): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  for (const node of nodes) if (node.selectionSet) collect(walk, node.selectionSet, type, out, new Set(), byName);
  return out;
}

/** Like subFields, grouped by response key (an alias, or the field name): each key is answered on its own. */
function subFieldsByKey(walk: Walk, nodes: readonly FieldNode[], type: GraphQLNamedType): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  for (const node of nodes) if (node.selectionSet) collect(walk, node.selectionSet, type, out, new Set(), responseKey);
  return out;
}

const byName = (node: FieldNode): string => node.name.value;
const responseKey = (node: FieldNode): string => node.alias?.value ?? node.name.value;

/**
 * The key a populated attribute is read under in the answer: its name for the first response key
 * that selects it, `name@alias` for the others (GraphQL field names and aliases never hold `@`),
 * so that two aliases of one field with different arguments get their own answers.
 */
export function populatedKey(name: string, key: string, first: boolean): string {
  return first ? name : `${name}@${key}`;
}

/** What a field resolver reads from its parent: its own aliased answer when there is one. */
export function populatedValue(parent: unknown, name: string, key: string | number): unknown {
  if (parent === null || typeof parent !== 'object') return undefined;
  const values = parent as Record<string, unknown>;
  const aliased = `${name}@${String(key)}`;
  return Object.hasOwn(values, aliased) ? values[aliased] : values[name];
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
  keyOf: (node: FieldNode) => string,
): void {
  for (const selection of set.selections) {
    if (!included(walk, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = keyOf(selection);
      const list = out.get(key) ?? [];
      list.push(selection);
      out.set(key, list);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!selection.typeCondition || selection.typeCondition.name.value === type.name)
        collect(walk, selection.selectionSet, type, out, seen, keyOf);
    } else {
      const name = selection.name.value;
      const fragment = walk.info.fragments[name];
      if (!fragment || seen.has(name) || fragment.typeCondition.name.value !== type.name) continue;
      seen.add(name);
      collect(walk, fragment.selectionSet, type, out, seen, keyOf);
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

const FILE_FIELDS_TO_SIGN = ['provider', 'hash', 'ext', 'mime', 'provider_metadata'];

/** `fields` and `populate` of one level of attributes (an entity's `attributes` or a component). */
function levelQuery(
  walk: Walk,
  schema: Schema,
  type: GraphQLNamedType,
  nodes: readonly FieldNode[],
): { fields: string[]; populate: Record<string, unknown> } {
  const fields = new Set<string>();
  const populate: Record<string, unknown> = {};
  const populated = new Set<string>();
  let extensionField = false;
  for (const [key, fieldNodes] of subFieldsByKey(walk, nodes, type)) {
    const first = fieldNodes[0];
    if (!first) continue;
    const name = first.name.value;
    const attribute = schema.attributes[name];
    const target = childType(type, name);
    if (!attribute && target && !name.startsWith('__')) extensionField = true;
    if (!attribute || !target) continue;
    if (
      attribute.type !== 'relation' &&
      attribute.type !== 'media' &&
      attribute.type !== 'component' &&
      attribute.type !== 'dynamiczone'
    ) {
      fields.add(name);
      continue;
    }
    const spec = attributeSpec(walk, schema, type, target, name, fieldNodes);
    if (!spec) continue;
    const outputKey = populatedKey(name, key, !populated.has(name));
    populated.add(name);
    populate[outputKey] = outputKey === name ? spec : { ...spec, [POPULATE_ATTRIBUTE]: name };
  }
  // a field an extension added resolves from the entry as Strapi reads it: every scalar attribute
  if (extensionField)
    for (const [name, attribute] of Object.entries(schema.attributes))
      if (!attribute.private && !['relation', 'media', 'component', 'dynamiczone', 'password'].includes(attribute.type))
        fields.add(name);
  // Strapi's resolvers read whole files: a private provider signs an address knowing what it stored
  if (schema.uid === UPLOAD_FILE_UID && (fields.has('url') || fields.has('formats')))
    for (const field of FILE_FIELDS_TO_SIGN) fields.add(field);
  return { fields: [...fields], populate };
}

/** The populate request of a relation, component or dynamic zone field (null: not read). */
function attributeSpec(
  walk: Walk,
  schema: Schema,
  type: GraphQLNamedType,
  target: GraphQLNamedType,
  name: string,
  fieldNodes: FieldNode[],
): Record<string, unknown> | null {
  const attribute = schema.attributes[name];
  const first = fieldNodes[0];
  if (!attribute || !first) return null;
  if (isMorph(attribute)) return isUnionType(target) ? morphSpec(walk, fieldNodes, target) : null;
  if (attribute.type === 'relation' || attribute.type === 'media') {
    const relatedUid = schema.relations[name]?.target;
    // media are readable with their entry (Strapi restricts relations only)
    const readable = attribute.type === 'media' || (relatedUid !== undefined && walk.access.canRead(relatedUid));
    const related = relatedUid && readable ? walk.registry.schema(relatedUid) : undefined;
    const multiple = schema.relations[name]?.multiple === true;
    if (!related) return null;
    let args: RawQuery;
    try {
      args = relationArgs(walk, related, argsOf(walk, type, first), multiple);
      validateUnused(walk, related.uid, args);
    } catch (error) {
      // Strapi resolves each relation field on its own: bad arguments fail that field only
      if (!walk.fieldErrors || !isAppError(error)) throw error;
      for (const node of fieldNodes) walk.fieldErrors.set(node, error);
      return null;
    }
    return { ...args, ...responseQuery(walk, related, target, fieldNodes) };
  }
  if (attribute.type === 'component') {
    const component = walk.registry.schema(attribute.component);
    if (!component) return null;
    const args = argsOf(walk, type, first);
    const list = attribute.repeatable === true;
    let filters: { filters?: unknown } = {};
    const sort = list && Array.isArray(args.sort) && args.sort.length > 0 ? { sort: args.sort } : {};
    try {
      if (list && args.filters !== undefined && args.filters !== null)
        filters = { filters: toRestFilters(walk.registry, component, args.filters) };
      if (list && component.modelType === 'component') checkComponentListArgs(walk, component, { ...filters, ...sort });
    } catch (error) {
      // as a relation's: bad arguments fail that field only (the component field's resolver throws it)
      if (!walk.fieldErrors || !isAppError(error)) throw error;
      for (const node of fieldNodes) walk.fieldErrors.set(node, error);
      return null;
    }
    return { ...levelSpec(levelQuery(walk, component, target, fieldNodes)), ...filters, ...sort };
  }
  if (attribute.type !== 'dynamiczone' || !isUnionType(target)) return null;
  const members = unionMembers(
    walk,
    fieldNodes,
    target.getTypes().map((t) => t.name),
  );
  if (members.size === 0) return {};
  // every component of the zone is answered (members without selected fields as empty objects)
  const on: Record<string, unknown> = {};
  for (const uid of attribute.components) {
    const component = walk.registry.component(uid);
    if (!component) continue;
    const memberNodes = members.get(typeName(component));
    const memberType = walk.info.schema.getType(typeName(component));
    on[uid] =
      memberNodes && memberType
        ? levelSpec(levelQueryOfFields(walk, component, memberType, memberNodes))
        : { fields: ['id'] };
  }
  return { on };
}

/**
 * A polymorphic field (`GenericMorph`): each content-type the caller may read is read with the
 * fields its inline fragment selects (only its id without one: `__typename` still resolves).
 */
function morphSpec(walk: Walk, fieldNodes: FieldNode[], target: GraphQLUnionType): Record<string, unknown> {
  const members = unionMembers(
    walk,
    fieldNodes,
    target.getTypes().map((t) => t.name),
  );
  const on: Record<string, unknown> = {};
  for (const contentType of walk.registry.listContentTypes()) {
    if (!walk.access.canRead(contentType.uid)) continue;
    const memberNodes = members.get(typeName(contentType));
    const memberType = walk.info.schema.getType(typeName(contentType));
    on[contentType.uid] =
      memberNodes && memberType
        ? levelSpec(levelQueryOfFields(walk, contentType, memberType, memberNodes))
        : { fields: ['id'] };
  }
  return { on };
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
    const window = graphqlWindow(args.pagination, walk.limits);
    out.start = window.start;
    out.limit = window.readLimit;
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

/** A resolver's walk of its selection: its page limits, the caller's access, the nested fields' errors. */
function walkOf(info: GraphQLResolveInfo, registry: Registry, ctx: GraphQLContext): Walk {
  ctx.fieldErrors ??= new WeakMap();
  return {
    info,
    registry,
    limits: pageLimits(ctx),
    access: operationContext(ctx).access,
    fieldErrors: ctx.fieldErrors,
  };
}

/** The read query of a top-level resolver: `fields` and `populate` from its selection set. */
export function selectionQuery(
  info: GraphQLResolveInfo,
  registry: Registry,
  schema: Schema,
  ctx: GraphQLContext,
): RawQuery {
  const walk = walkOf(info, registry, ctx);
  return responseQuery(walk, schema, getNamedType(info.returnType), info.fieldNodes);
}

/**
 * The read query of one relation or media field of an entry a custom resolver answered flat (not
 * read through a generated query, so nothing was populated for it): the owner entry's `id` and
 * that field, populated with its arguments and selection as a generated query reads them.
 */
export function fieldOfEntryQuery(
  info: GraphQLResolveInfo,
  registry: Registry,
  owner: Schema,
  ctx: GraphQLContext,
): RawQuery {
  const walk = walkOf(info, registry, ctx);
  const entry: FieldNode = {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: '__entry' },
    selectionSet: { kind: Kind.SELECTION_SET, selections: info.fieldNodes },
  };
  return { fields: ['id'], populate: levelQuery(walk, owner, info.parentType, [entry]).populate };
}

/** The fields selected under `meta { pagination { … } }` (a count is only run when they need the total). */
export function selectedPaginationFields(info: GraphQLResolveInfo, registry: Registry): Set<string> {
  const walk: Walk = {
    info,
    registry,
    limits: { defaultLimit: 1, maxLimit: -1, amountLimit: 0 },
    access: UNRESTRICTED,
  };
  const type = getNamedType(info.returnType);
  const meta = subFields(walk, info.fieldNodes, type).get('meta') ?? [];
  const metaType = childType(type, 'meta');
  if (!metaType || meta.length === 0) return new Set();
  const pagination = subFields(walk, meta, metaType).get('pagination') ?? [];
  const paginationType = childType(metaType, 'pagination');
  if (!paginationType || pagination.length === 0) return new Set();
  return new Set(subFields(walk, pagination, paginationType).keys());
}
