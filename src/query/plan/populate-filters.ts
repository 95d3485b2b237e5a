import { compileFiltersPushedDown, type RelatedEntries } from '../filters/index.js';
import type { ComponentSelection, EntrySelection, PopulateMap, PopulateNode } from '../read-tree.js';

/**
 * A selection whose populated relations filter through other relations
 * (`populate[articles][filters][tags][name]=x`, GraphQL `articles(filters: { tags: ... })`)
 * with those filters answered on the related collections first (filters/push-down.ts: one query
 * per relation filter), so each populated entry is kept by a condition on its own indexed field
 * (`{ tags: { $in: [ids] } }`) instead of a `$lookup` per related entry of every entry read.
 * The parsed selection is shared between requests (selection-memo.ts) and the pushed-down ids
 * are this request's: the nodes on the way are copied, the rest shared. Undefined when no
 * populated relation filters through a relation.
 */
export async function withPopulateFiltersPushedDown(
  selection: EntrySelection,
  related: RelatedEntries,
): Promise<EntrySelection | undefined> {
  if (!filtersThroughRelations(selection)) return undefined;
  return { ...selection, populate: await pushDownMap(selection.populate, related) };
}

/** Whether some populated relation, at any depth, filters through a relation (memoized per selection). */
function filtersThroughRelations(selection: EntrySelection | ComponentSelection): boolean {
  let known = throughRelations.get(selection);
  if (known === undefined) {
    known = Object.values(selection.populate).some(nodeFiltersThroughRelations);
    throughRelations.set(selection, known);
  }
  return known;
}

const throughRelations = new WeakMap<object, boolean>();

function nodeFiltersThroughRelations(node: PopulateNode): boolean {
  switch (node.kind) {
    case 'relation':
      return node.pushDown !== undefined || filtersThroughRelations(node.selection);
    case 'component':
      return filtersThroughRelations(node.selection);
    case 'dynamiczone':
      return Object.values(node.components).some(filtersThroughRelations);
    case 'morph':
      return false;
  }
}

async function pushDownMap(populate: PopulateMap, related: RelatedEntries): Promise<PopulateMap> {
  const entries = await Promise.all(
    Object.entries(populate).map(async ([key, node]) => [key, await pushDownNode(node, related)] as const),
  );
  return Object.fromEntries(entries);
}

async function pushDownNode(node: PopulateNode, related: RelatedEntries): Promise<PopulateNode> {
  if (!nodeFiltersThroughRelations(node)) return node;
  switch (node.kind) {
    case 'relation': {
      const [filterStages, populate] = await Promise.all([
        node.pushDown ? compileFiltersPushedDown(node.pushDown, related) : node.filterStages,
        pushDownMap(node.selection.populate, related),
      ]);
      return { ...node, filterStages, selection: { ...node.selection, populate } };
    }
    case 'component':
      return { ...node, selection: await pushDownComponent(node.selection, related) };
    case 'dynamiczone': {
      const entries = await Promise.all(
        Object.entries(node.components).map(
          async ([uid, selection]) => [uid, await pushDownComponent(selection, related)] as const,
        ),
      );
      return { ...node, components: Object.fromEntries(entries) };
    }
    case 'morph':
      return node;
  }
}

async function pushDownComponent(selection: ComponentSelection, related: RelatedEntries): Promise<ComponentSelection> {
  if (!filtersThroughRelations(selection)) return selection;
  return { ...selection, populate: await pushDownMap(selection.populate, related) };
}
