/**
 * `strapi.plugin('graphql').service('format')` of Strapi v4: `returnTypes.toEntityResponse` and
 * `toEntityResponseCollection`, which custom resolvers use to answer entries they read with
 * `strapi.entityService` (flat `{ id, ...attributes }`) as the generated types expect
 * (`{ data: { id, attributes } }`, relations as `{ data }` envelopes). A collection's
 * `meta.pagination` is Strapi's: given the `args` and `resourceUID`, the entries matching the args'
 * filters are counted (with the caller's permissions) when a query selects it; without them it
 * describes the entries given. A relation or media field the entries were read without is read
 * from the database when a query selects it (flat-entry-relations.ts), as Strapi's resolver does:
 * also inside their components, which keep their place in the entry for it.
 */
import { isMorph, UPLOAD_FILE_UID, type Attribute, type Registry, type Schema } from '../../content-types/index.js';
import { readEntries } from '../../query/index.js';
import { operationContext, pageLimits, type GraphQLContext } from './context.js';
import { toRestFilters } from './filters.js';
import { withComponentPlace, withEntryId, type ComponentPlace } from './flat-entry-relations.js';
import { graphqlPaginationMeta, graphqlWindow, type GraphQLWindow } from './pagination.js';

type Entry = Record<string, unknown>;

interface FormatInfo {
  args?: Record<string, unknown>;
  /** the content-type of the entries: without it, relations are left as they are */
  resourceUID?: string;
}

function isEntry(value: unknown): value is Entry {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The place of a component of `attribute` (with its id) one level below `place`; none without an id. */
function placeOf(place: ComponentPlace | undefined, attribute: string, value: Entry): ComponentPlace | undefined {
  const id = Number(value.id);
  if (!place || !Number.isInteger(id) || id <= 0) return undefined;
  const zoneItem = typeof value.__component === 'string' ? { component: value.__component } : {};
  return { ...place, steps: [...place.steps, { attribute, id, ...zoneItem }] };
}

export function createFormatService(registry: Registry) {
  // the attributes keep their entry's id: a relation the entry was read without is read by it
  const envelope = (schema: Schema | undefined, value: unknown): unknown => {
    if (!isEntry(value)) return null;
    const { id, ...rest } = value;
    const entryId = Number(id);
    const place =
      schema?.modelType === 'contentType' && Number.isInteger(entryId) && entryId > 0
        ? { uid: schema.uid, id: entryId, steps: [] }
        : undefined;
    return { id, attributes: withEntryId(attributesOf(schema, rest, place), id) };
  };
  const relation = (target: string, value: unknown): unknown => {
    const schema = registry.schema(target);
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return { data: value.map((v) => envelope(schema, v)) };
    return { data: envelope(schema, value) };
  };
  const component = (uid: string, value: unknown, name: string, owner: ComponentPlace | undefined): unknown => {
    if (!isEntry(value)) return value;
    const place = placeOf(owner, name, value);
    const attributes = attributesOf(registry.schema(uid), value, place);
    return place ? withComponentPlace(attributes, place) : attributes;
  };
  const attribute = (attr: Attribute | undefined, value: unknown, name: string, place?: ComponentPlace): unknown => {
    switch (attr?.type) {
      case 'relation':
        // polymorphic links are answered as read (`{ __type, id, ...attributes }`)
        return attr.target === undefined || isMorph(attr) ? value : relation(attr.target, value);
      case 'media':
        return relation(UPLOAD_FILE_UID, value);
      case 'component':
        return Array.isArray(value)
          ? value.map((c) => component(attr.component, c, name, place))
          : component(attr.component, value, name, place);
      case 'dynamiczone':
        return Array.isArray(value)
          ? value.map((item) => (isEntry(item) ? component(String(item.__component), item, name, place) : item))
          : value;
      default:
        return value;
    }
  };
  /** `place`: where these attributes sit in their entry (for relations read later inside components) */
  function attributesOf(schema: Schema | undefined, values: Entry, place?: ComponentPlace): Entry {
    if (!schema) return values;
    return Object.fromEntries(
      Object.entries(values).map(([key, v]) => [key, attribute(schema.attributes[key], v, key, place)]),
    );
  }

  return {
    returnTypes: {
      toEntityResponse(value: unknown, info: FormatInfo = {}) {
        const schema = info.resourceUID ? registry.schema(info.resourceUID) : undefined;
        // `info` as Strapi's answer carries it: a union's resolveType reads `info.resourceUID`
        return { data: envelope(schema, value), info: { args: info.args ?? {}, resourceUID: info.resourceUID } };
      },
      toEntityResponseCollection(nodes: unknown[], info: FormatInfo = {}) {
        const schema = info.resourceUID ? registry.schema(info.resourceUID) : undefined;
        const data = (nodes ?? []).map((node) => envelope(schema, node));
        const { args } = info;
        if (!schema || !isEntry(args) || registry.contentType(schema.uid)?.kind !== 'collectionType') {
          const pagination = { page: 1, pageSize: data.length, pageCount: data.length > 0 ? 1 : 0, total: data.length };
          return { data, meta: { pagination } };
        }
        // graphql-js calls a function-valued field: the count runs only for a query that selects it
        const pagination = async (_args: unknown, context: GraphQLContext) =>
          graphqlPaginationMeta(argsWindow(args, context), await countMatching(context, schema, args));
        return { data, meta: { pagination } };
      },
    },
  };

  /** The entries of `schema` the args' filters (`$` operators, or GraphQL's) match, as the caller may read them. */
  async function countMatching(context: GraphQLContext, schema: Schema, args: Entry): Promise<number> {
    const query: Record<string, unknown> = { fields: ['id'], pagination: { start: 0, limit: 1, withCount: true } };
    if (args.filters !== undefined && args.filters !== null)
      query.filters = JSON.stringify(args.filters).includes('"$')
        ? args.filters
        : toRestFilters(registry, schema, args.filters);
    if (typeof args.publicationState === 'string') query.publicationState = args.publicationState.toLowerCase();
    if (typeof args.locale === 'string') query.locale = args.locale;
    const { pagination } = await readEntries(operationContext(context), schema.uid, query);
    return pagination.total ?? 0;
  }
}

/** Strapi's `start`/`limit` of transformed args; GraphQL's `pagination` argument as a list query reads it. */
function argsWindow(args: Entry, context: GraphQLContext): GraphQLWindow {
  if (typeof args.start === 'number' || typeof args.limit === 'number') {
    const start = typeof args.start === 'number' ? Math.max(args.start, 0) : 0;
    const limit = typeof args.limit === 'number' ? (args.limit === -1 ? -1 : Math.max(args.limit, 1)) : 1;
    return { start, limit, readLimit: limit };
  }
  const window = graphqlWindow(args.pagination, { ...pageLimits(context), amountLimit: 0 });
  return { ...window, readLimit: window.limit };
}
