import type { Attribute, Registry, Schema } from '../content-types/index.js';
import { inverseOrder } from '../models/index.js';
import { matchesFilter } from './filters/evaluate.js';
import { populatePaginationMeta } from './parse/pagination.js';
import { sortOrder } from './sort/value-order.js';
import type {
  ComponentSelection,
  ComponentWindow,
  EntrySelection,
  MorphPopulate,
  PopulateMap,
  RelationPopulate,
  ResolvedMorph,
} from './read-tree.js';

type Doc = Record<string, unknown>;

/**
 * `envelope`: Strapi's REST shapes (`{ id, attributes }`, relations as `{ data }`);
 * `plain`: flat objects (`{ id, ...attributes }`, relations as the entry / array / null), as the
 * users-permissions routes answer.
 */
export type FormatStyle = 'envelope' | 'plain';

export interface Formatter {
  registry: Registry;
  style: FormatStyle;
}

/**
 * The content-type of a morphToOne's entry, which Strapi answers without `__type` (a symbol: no
 * JSON answer carries it; GraphQL's union reads it).
 */
export const MORPH_TYPE = Symbol('morph type');

/** Strapi's REST entry. */
export interface EnvelopeEntry {
  id: number;
  attributes: Record<string, unknown>;
}

/** A flat entry (`plain` style). */
export type PlainEntry = { id: number } & Record<string, unknown>;

/** One entry read by the aggregation, formatted with the selection it was read with. */
export function formatEntry(fmt: Formatter, doc: Doc, selection: EntrySelection): EnvelopeEntry | PlainEntry {
  const schema = fmt.registry.schema(selection.uid);
  const attributes = schema ? formatLevel(fmt, schema, doc, doc, selection, true) : {};
  return fmt.style === 'envelope' ? { id: toId(doc._id), attributes } : { id: toId(doc._id), ...attributes };
}

/** `formatEntry` in the flat style. */
export function formatPlainEntry(registry: Registry, doc: Doc, selection: EntrySelection): PlainEntry {
  const schema = registry.schema(selection.uid);
  const fmt: Formatter = { registry, style: 'plain' };
  return { id: toId(doc._id), ...(schema ? formatLevel(fmt, schema, doc, doc, selection, true) : {}) };
}

/** `formatEntry` in Strapi's REST style. */
export function formatEnvelopeEntry(registry: Registry, doc: Doc, selection: EntrySelection): EnvelopeEntry {
  const schema = registry.schema(selection.uid);
  const fmt: Formatter = { registry, style: 'envelope' };
  return { id: toId(doc._id), attributes: schema ? formatLevel(fmt, schema, doc, doc, selection, true) : {} };
}

/** Fields and populated attributes of an entry (`holder` = the entry carrying the lookup outputs). */
function formatLevel(
  fmt: Formatter,
  schema: Schema,
  value: Doc,
  holder: Doc,
  selection: EntrySelection | ComponentSelection,
  entryLevel: boolean,
): Doc {
  const out: Doc = {};
  for (const field of selection.fields) {
    const attribute = schema.attributes[field];
    if (attribute) out[field] = formatScalar(attribute, value[field]);
  }
  formatPopulated(fmt, selection.populate, value, holder, entryLevel, out);
  return out;
}

function formatPopulated(
  fmt: Formatter,
  map: PopulateMap,
  value: Doc,
  holder: Doc,
  entryLevel: boolean,
  out: Doc,
): void {
  for (const [key, node] of Object.entries(map)) {
    if (node.kind === 'relation') {
      out[key] = formatRelation(fmt, node, value, holder, entryLevel);
    } else if (node.kind === 'morph') {
      const morph = formatMorph(fmt, node, value);
      if (morph !== undefined) out[key] = morph;
    } else if (node.kind === 'component') {
      const stored = value[node.attribute];
      const held = node.repeatable
        ? Array.isArray(stored)
          ? stored.filter(isDoc)
          : []
        : isDoc(stored)
          ? [stored]
          : [];
      const matching = selectComponents(held, node.selection);
      // a count ignores the window, as a relation's
      const items = node.count ? matching : inWindow(matching, node.selection.window);
      if (node.count) out[key] = { count: items.length };
      else if (node.repeatable) out[key] = items.map((item) => formatComponent(fmt, item, holder, node.selection));
      else out[key] = items[0] ? formatComponent(fmt, items[0], holder, node.selection) : null;
    } else {
      const stored = Array.isArray(value[node.attribute]) ? (value[node.attribute] as unknown[]) : [];
      // each component's window counts its own items (Strapi reads each component's table apart)
      const seen = new Map<string, number>();
      out[key] = stored.filter(isDoc).flatMap((item) => {
        const uid = typeof item.__component === 'string' ? item.__component : '';
        const selection = node.components[uid];
        if (!selection || (selection.filter && !matchesFilter(selection.filter, item))) return [];
        const position = seen.get(uid) ?? 0;
        seen.set(uid, position + 1);
        if (!withinWindow(position, selection.window)) return [];
        const formatted = formatComponent(fmt, item, holder, selection);
        return [{ id: formatted.id, __component: uid, ...formatted }];
      });
    }
  }
}

/** The components an entry holds that match the populate's filters, in its sort order (ties: stored order). */
function selectComponents(items: Doc[], selection: ComponentSelection): Doc[] {
  const { filter, sort } = selection;
  const kept = filter ? items.filter((item) => matchesFilter(filter, item)) : items;
  if (!sort || sort.length === 0) return kept;
  return [...kept].sort((a, b) => {
    for (const { path, direction } of sort) {
      const order = sortOrder(valueOf(a, path), valueOf(b, path));
      if (order !== 0) return order * direction;
    }
    return 0;
  });
}

/** The components of `populate[x][start|limit]` (Strapi applies them to an entry's components as a findOne reads them). */
function inWindow(items: Doc[], window: ComponentWindow | null): Doc[] {
  return window === null ? items : items.filter((_item, position) => withinWindow(position, window));
}

function withinWindow(position: number, window: ComponentWindow | null): boolean {
  if (window === null) return true;
  return position >= window.skip && (window.limit === null || position < window.skip + window.limit);
}

function valueOf(item: Doc, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (isDoc(value) ? value[key] : undefined), item);
}

function formatComponent(fmt: Formatter, item: Doc, holder: Doc, selection: ComponentSelection): Doc {
  const schema = fmt.registry.schema(selection.uid);
  return { id: toId(item.id), ...(schema ? formatLevel(fmt, schema, item, holder, selection, false) : {}) };
}

function formatRelation(fmt: Formatter, node: RelationPopulate, value: Doc, holder: Doc, entryLevel: boolean): unknown {
  const fetched = (Array.isArray(holder[node.as]) ? (holder[node.as] as unknown[]) : []).filter(isDoc);
  if (node.count) {
    // an entry's own relation is counted by the database (populate-stages.ts), one in a component here
    const count = entryLevel
      ? countedBy(fetched)
      : relatedInOrder(node, fetched, value[node.relation.attribute], false).length;
    return fmt.style === 'plain' ? { count } : { data: { attributes: { count } } };
  }
  const related = relatedInOrder(node, fetched, value[node.relation.attribute], entryLevel);
  const entries = related.map((doc) => formatEntry(fmt, doc, node.selection));
  if (fmt.style === 'plain') return node.relation.multiple ? entries : (entries[0] ?? null);
  if (!node.relation.multiple) return { data: entries[0] ?? null };
  if (!node.window?.meta) return { data: entries };
  const counted = Array.isArray(holder[node.countAs]) ? (holder[node.countAs] as unknown[]) : [];
  const first = counted[0];
  const total = isDoc(first) && typeof first.n === 'number' ? first.n : 0;
  return {
    data: entries,
    meta: { pagination: populatePaginationMeta(node.window.meta, node.window.meta.withCount ? total : null) },
  };
}

/**
 * A polymorphic relation as Strapi 4.26 answers it. Its `morphTo*` links are no `{ data }`
 * envelope on REST: flat entries (`{ __type, id, ...attributes }`; a morphToOne's entry has no
 * `__type`), and an empty list is left out of a REST answer (its output sanitizer removes a
 * polymorphic list with no readable link). `morphOne`/`morphMany` are relations to their target.
 */
function formatMorph(fmt: Formatter, node: MorphPopulate, value: Doc): unknown {
  const resolved = Array.isArray(value[node.as]) ? (value[node.as] as ResolvedMorph[]) : [];
  const flat = (item: ResolvedMorph) => formatPlainEntry(fmt.registry, item.doc, item.selection);
  switch (node.relation) {
    case 'morphToMany':
      if (resolved.length === 0 && fmt.style === 'envelope') return undefined;
      return resolved.map((item) => ({ __type: item.type, ...flat(item) }));
    case 'morphToOne': {
      const [first] = resolved;
      return first ? Object.assign(flat(first), { [MORPH_TYPE]: first.type }) : null;
    }
    case 'morphOne':
    case 'morphMany': {
      const entries = resolved.map((item) => formatEntry(fmt, item.doc, item.selection));
      const answer = node.relation === 'morphMany' ? entries : (entries[0] ?? null);
      return fmt.style === 'plain' ? answer : { data: answer };
    }
  }
}

/**
 * The related entries in the relation's order. The server already ordered them when the populate
 * level has a sort or a window, and on a to-many `mappedBy` side (order keys); otherwise: the
 * stored id order on the owning side, ascending ids on a to-one inverse side or for localizations.
 * Inside a component the lookup fetched the entries of every component of the entry: only the
 * ones this component stores are kept.
 */
/** The `n` of a `$count` stage's answer (no document when nothing was counted). */
function countedBy(answer: Doc[]): number {
  const n = answer[0]?.n;
  return typeof n === 'number' ? n : 0;
}

function relatedInOrder(node: RelationPopulate, fetched: Doc[], stored: unknown, entryLevel: boolean): Doc[] {
  const serverOrdered = node.sort !== null || node.window !== null || inverseOrder(node.relation) !== null;
  if (!node.relation.stored) return serverOrdered ? fetched : [...fetched].sort((a, b) => toId(a._id) - toId(b._id));
  if (serverOrdered && entryLevel) return fetched;
  const ids = (Array.isArray(stored) ? stored : stored === null || stored === undefined ? [] : [stored]).map(toId);
  if (serverOrdered) {
    const kept = new Set(ids);
    return fetched.filter((doc) => kept.has(toId(doc._id)));
  }
  const byId = new Map(fetched.map((doc) => [toId(doc._id), doc]));
  return ids.flatMap((id) => {
    const doc = byId.get(id);
    return doc ? [doc] : [];
  });
}

/** A stored scalar as Strapi v4 answers it. */
export function formatScalar(attribute: Attribute, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (attribute.type) {
    case 'datetime':
    case 'timestamp':
      return value instanceof Date ? value.toISOString() : value;
    case 'biginteger':
      return typeof value === 'object' || typeof value === 'number' || typeof value === 'bigint'
        ? String(value)
        : value;
    case 'integer':
    case 'float':
    case 'decimal':
      return typeof value === 'object' || typeof value === 'bigint' ? Number(String(value)) : value;
    default:
      return value;
  }
}

function toId(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value));
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}
