/**
 * Populating polymorphic relations. Their targets are known only once the entries are read, so
 * they are read after the aggregation, as Strapi 4.26 reads them after its main query: one read
 * per polymorphic populate node and content-type present among the links of every entry read
 * (never one per entry), each with the node's request parsed against that type (its `on`
 * fragment when the request lists types: the other types are left out), its own populate
 * planned into that read, and the polymorphic relations of those entries read the same way.
 * A `morphOne`/`morphMany` side is one read of its target: the entries whose `morphBy` links
 * back. The entries are put on each entry under the node's `as` field, in link order, for the
 * formatter. Drafts are left out of a live read, as for every relation here.
 */
import { isPlainObject } from './qs-values.js';
import type { ContentType, Registry } from '../content-types/index.js';
import type { QueryAccess } from './access.js';
import type { PipelineStage } from './filters/index.js';
import { publicationMatch } from './parse/publication-state.js';
import { populateStages, projection, type PlanContext } from './plan/populate-stages.js';
import type { EntrySelection, MorphPopulate, PopulateMap, PublicationState, ResolvedMorph } from './read-tree.js';

type Doc = Record<string, unknown>;

export interface MorphReader {
  registry: Registry;
  access: QueryAccess;
  plan: PlanContext;
  /** what is read of one linked type: the `fields` and `populate` of `spec`, checked as any populate level */
  select(schema: ContentType, spec: Record<string, unknown>, state: PublicationState, param: string): EntrySelection;
  /** the stages of a populate level's `filters` on one linked type (Strapi applies them to each type's query) */
  filter(uid: string, filters: unknown): PipelineStage[];
  read(uid: string, pipeline: PipelineStage[]): Promise<Doc[]>;
}

interface Link {
  __type: string;
  id: number;
}

/** Whether a selection populates a polymorphic relation at any depth (kept per selection: memoized ones are reused). */
const populatesMorphs = new WeakMap<PopulateMap, boolean>();

export function populatesMorph(selection: Pick<EntrySelection, 'populate'>): boolean {
  const known = populatesMorphs.get(selection.populate);
  if (known !== undefined) return known;
  const found = Object.values(selection.populate).some((node) => {
    if (node.kind === 'morph') return true;
    if (node.kind === 'dynamiczone') return Object.values(node.components).some(populatesMorph);
    return !(node.kind === 'relation' && node.count) && populatesMorph(node.selection);
  });
  populatesMorphs.set(selection.populate, found);
  return found;
}

/** Reads the polymorphic relations `selection` populates on `entries`, in place. */
export async function resolveMorphs(reader: MorphReader, entries: Doc[], selection: EntrySelection): Promise<void> {
  const found = new Map<MorphPopulate, Doc[]>();
  entries.forEach((entry) => collect(entry, entry, selection.populate, found));
  await Promise.all(
    [...found].map(([node, owners]) =>
      node.target === undefined ? resolveMorphTo(reader, node, owners) : resolveMorphBy(reader, node, owners),
    ),
  );
}

/** The entries holding each polymorphic node (relations inside components are fetched onto `holder`). */
function collect(holder: Doc, value: Doc, populate: PopulateMap, found: Map<MorphPopulate, Doc[]>): void {
  for (const node of Object.values(populate)) {
    if (node.kind === 'morph') {
      const list = found.get(node) ?? [];
      list.push(value);
      found.set(node, list);
    } else if (node.kind === 'relation') {
      if (node.count) continue;
      docs(holder[node.as]).forEach((entry) => collect(entry, entry, node.selection.populate, found));
    } else if (node.kind === 'component') {
      docs(value[node.attribute]).forEach((item) => collect(holder, item, node.selection.populate, found));
    } else {
      for (const item of docs(value[node.attribute])) {
        const selected = node.components[String(item.__component)];
        if (selected) collect(holder, item, selected.populate, found);
      }
    }
  }
}

async function resolveMorphTo(reader: MorphReader, node: MorphPopulate, owners: Doc[]): Promise<void> {
  const idsByType = new Map<string, Set<number>>();
  for (const owner of owners)
    for (const link of links(owner[node.attribute])) {
      const ids = idsByType.get(link.__type) ?? new Set<number>();
      ids.add(link.id);
      idsByType.set(link.__type, ids);
    }
  const byType = new Map<string, Map<number, ResolvedMorph>>();
  await Promise.all(
    [...idsByType].map(async ([type, ids]) => {
      const read = await readType(reader, node, type, [...ids]);
      if (read) byType.set(type, read);
    }),
  );
  for (const owner of owners) {
    const resolved = links(owner[node.attribute]).flatMap((link) => {
      const entry = byType.get(link.__type)?.get(link.id);
      return entry ? [entry] : [];
    });
    owner[node.as] = node.relation === 'morphToOne' ? resolved.slice(0, 1) : resolved;
  }
}

/** The entries of one linked type, by id; undefined when the request leaves the type out or the caller may not read it. */
async function readType(
  reader: MorphReader,
  node: MorphPopulate,
  type: string,
  ids: number[],
): Promise<Map<number, ResolvedMorph> | undefined> {
  const schema = reader.registry.contentType(type);
  if (!schema || !reader.access.canRead(type)) return undefined;
  const on = node.request.on;
  let spec = node.request;
  let param = node.param;
  if (isPlainObject(on)) {
    if (!Object.hasOwn(on, type)) return undefined;
    const fragment = on[type];
    spec = isPlainObject(fragment) ? fragment : {};
    param = `${param}[on][${type}]`;
  }
  const selection = reader.select(schema, spec, node.publicationState, param);
  const entries = await readEntriesOf(reader, schema, selection, node.publicationState, { _id: { $in: ids } }, spec);
  return new Map(entries.map((doc) => [Number(doc._id), { type, doc, selection }]));
}

async function resolveMorphBy(reader: MorphReader, node: MorphPopulate, owners: Doc[]): Promise<void> {
  const schema = node.target === undefined ? undefined : reader.registry.contentType(node.target);
  const field = node.morphBy ?? '';
  const ownerType = node.owner;
  if (!schema || owners.length === 0) return;
  const selection = reader.select(schema, node.request, node.publicationState, node.param);
  const ids = owners.map((owner) => Number(owner._id));
  const entries = await readEntriesOf(
    reader,
    schema,
    selection,
    node.publicationState,
    { [`${field}.id`]: { $in: ids }, [`${field}.__type`]: ownerType },
    node.request,
    field,
  );
  for (const owner of owners) {
    const id = Number(owner._id);
    owner[node.as] = entries
      .filter((doc) => links(doc[field]).some((link) => link.__type === ownerType && link.id === id))
      .map((doc): ResolvedMorph => ({ type: schema.uid, doc, selection }));
  }
}

/** One read of `schema`'s entries matching `match`, populated as `selection` says (polymorphic relations too). */
async function readEntriesOf(
  reader: MorphReader,
  schema: ContentType,
  selection: EntrySelection,
  state: PublicationState,
  match: Doc,
  spec: Record<string, unknown>,
  keep?: string,
): Promise<Doc[]> {
  const entries = await reader.read(schema.uid, [
    { $match: { ...match, ...publicationMatch(schema.draftAndPublish, state) } },
    ...(spec.filters === undefined ? [] : reader.filter(schema.uid, spec.filters)),
    { $sort: { _id: 1 } },
    ...populateStages(reader.plan, selection.populate),
    { $project: { ...projection(selection), ...(keep ? { [keep]: 1 } : {}) } },
  ]);
  await resolveMorphs(reader, entries, selection);
  return entries;
}

function links(value: unknown): Link[] {
  const items = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  return items.filter(
    (item): item is Link => isPlainObject(item) && typeof item.__type === 'string' && typeof item.id === 'number',
  );
}

function docs(value: unknown): Doc[] {
  if (Array.isArray(value)) return value.filter(isPlainObject);
  return isPlainObject(value) ? [value] : [];
}
