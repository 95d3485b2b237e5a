import type { RelationInfo } from '../../content-types/index.js';
import { LINK_ORDER, inverseOrder } from '../../models/index.js';
import type { PipelineStage } from '../filters/index.js';
import { publicationMatch } from '../parse/publication-state.js';
import type { ComponentSelection, EntrySelection, PopulateMap, RelationPopulate } from '../read-tree.js';

/** One step from an entry down to a component: the attribute, whether it holds an array, and for a dynamic zone the component kept. */
interface ComponentStep {
  name: string;
  many: boolean;
  component?: string;
}

export interface PlanContext {
  /** whether a content-type is Draft & Publish */
  draftAndPublish(uid: string): boolean;
  /** the collection a content-type is stored in (`$lookup.from`) */
  collectionName(uid: string): string;
}

/**
 * The `$lookup` stages (let + pipeline) that populate every relation of `map`, including the
 * relations inside components and dynamic zones and, nested in each lookup's pipeline, the next
 * populate levels. Each writes the related entries into the node's `as` field (filtered, and
 * sorted and windowed when asked; otherwise the formatter orders them); a paginated relation also
 * writes its total into `countAs`.
 */
export function populateStages(plan: PlanContext, map: PopulateMap, steps: ComponentStep[] = []): PipelineStage[] {
  const stages: PipelineStage[] = [];
  for (const node of Object.values(map)) {
    const name = node.attribute;
    if (node.kind === 'relation') stages.push(...relationLookups(plan, node, steps));
    else if (node.kind === 'morph') continue;
    else if (node.kind === 'component')
      stages.push(...populateStages(plan, node.selection.populate, [...steps, { name, many: node.repeatable }]));
    else {
      for (const [uid, selection] of Object.entries(node.components)) {
        stages.push(...populateStages(plan, selection.populate, [...steps, { name, many: true, component: uid }]));
      }
    }
  }
  return stages;
}

/** `$project` keeping what the formatter reads at this level: id, fields, populated components and lookup outputs. */
export function projection(selection: EntrySelection | ComponentSelection): Record<string, 1> {
  const kept: Record<string, 1> = { _id: 1 };
  for (const field of selection.fields) kept[field] = 1;
  collectOutputs(selection.populate, kept, true);
  return kept;
}

function collectOutputs(map: PopulateMap, kept: Record<string, 1>, topLevel: boolean): void {
  for (const node of Object.values(map)) {
    if (node.kind === 'relation') {
      kept[node.as] = 1;
      if (topLevel && node.relation.stored) kept[node.relation.attribute] = 1;
      if (node.window?.meta) kept[node.countAs] = 1;
      continue;
    }
    if (topLevel) kept[node.attribute] = 1;
    if (node.kind === 'morph') continue;
    if (node.kind === 'component') collectOutputs(node.selection.populate, kept, false);
    else for (const selection of Object.values(node.components)) collectOutputs(selection.populate, kept, false);
  }
}

function relationLookups(plan: PlanContext, node: RelationPopulate, steps: ComponentStep[]): PipelineStage[] {
  const join = joinOf(node.relation, steps);
  const from = plan.collectionName(node.relation.target);
  const conditions = [
    join.condition ? { $expr: join.condition } : {},
    publicationMatch(plan.draftAndPublish(node.relation.target), node.publicationState),
  ].filter((condition) => Object.keys(condition).length > 0);
  const match: PipelineStage[] =
    conditions.length === 0 ? [] : [{ $match: conditions.length === 1 ? conditions[0] : { $and: conditions } }];
  // `[count]=true` of an entry's own relation: the number alone (format.ts reads it); inside a
  // component the entry's lookup joins every component's links, which each component then counts
  if (node.count && steps.length === 0) {
    const joinLet = join.let && Object.keys(join.let).length > 0 ? { let: join.let } : {};
    const counting = [...match, ...node.filterStages, { $count: 'n' }];
    const { localField, foreignField } = join;
    return [{ $lookup: { from, localField, foreignField, ...joinLet, pipeline: counting, as: node.as } }];
  }
  // Without sort or window the formatter puts the entries in order (stored order, or by id), which
  // spares the server a sort per entry; a window needs the order on the server.
  const storedOrder = join.stored && node.sort === null && node.window !== null;
  // a to-many `mappedBy` side is ordered by keys its owning entries store (entries without one first)
  const keyOrder = inverseOrder(node.relation);
  const order = node.sort
    ? [...node.sort.lookups, { $sort: node.sort.sort }]
    : keyOrder
      ? keyOrderStages(keyOrder)
      : node.window === null
        ? []
        : storedOrder
          ? [{ $addFields: { __order: { $indexOfArray: ['$$ids', '$_id'] } } }, { $sort: { __order: 1 } }]
          : [{ $sort: { _id: 1 } }];
  const window: PipelineStage[] = [];
  if (node.window && node.window.skip > 0) window.push({ $skip: node.window.skip });
  if (node.window && node.window.limit !== null) window.push({ $limit: node.window.limit });
  const pipeline = [
    ...match,
    ...node.filterStages,
    ...order,
    ...window,
    // after the window, so the sort is a top-k and only the window's entries lose the sort's fields
    ...(node.sort?.cleanup ?? []),
    ...populateStages(plan, node.selection.populate),
    { $project: projection(node.selection) },
  ];
  // localField/foreignField: an equality join MongoDB (5.0+) and the embedded engine serve from the target's index
  const variables = {
    ...join.let,
    ...(storedOrder ? { ids: idsAt('$', steps, node.relation) } : {}),
    ...(keyOrder?.perLink && !node.sort ? { owner: '$_id' } : {}),
  };
  const base = {
    from,
    localField: join.localField,
    foreignField: join.foreignField,
    ...(Object.keys(variables).length > 0 ? { let: variables } : {}),
  };
  const stages: PipelineStage[] = [{ $lookup: { ...base, pipeline, as: node.as } }];
  if (node.window?.meta)
    stages.push({
      $lookup: { ...base, pipeline: [...match, ...node.filterStages, { $count: 'n' }], as: node.countAs },
    });
  return stages;
}

/** A computed field of the joined entries, dropped by the final `$project`. */
const POSITION = '__position';

/**
 * Sorts the owning entries of a to-many inverse side by their order keys: `__order.<field>` when
 * each entry has one link, else the key of its link to the entry being populated (`$$owner`),
 * `__order.<field>.<owner id>`, found in the small object of that entry's keys.
 */
function keyOrderStages(keyOrder: { field: string; perLink: boolean }): PipelineStage[] {
  const path = `${LINK_ORDER}.${keyOrder.field}`;
  if (!keyOrder.perLink) return [{ $sort: { [path]: 1, _id: 1 } }];
  const keys = { $objectToArray: { $ifNull: [`$${path}`, {}] } };
  const mine = { $filter: { input: keys, as: 'key', cond: { $eq: ['$$key.k', { $toString: '$$owner' }] } } };
  return [
    { $addFields: { [POSITION]: { $arrayElemAt: [{ $map: { input: mine, as: 'key', in: '$$key.v' } }, 0] } } },
    { $sort: { [POSITION]: 1, _id: 1 } },
  ];
}

interface Join {
  /** the equality join: a path of the entry (through components: dotted) and the indexed field of the target */
  localField: string;
  foreignField: string;
  /** variables the extra condition reads */
  let: Record<string, unknown>;
  /** an extra `$expr` condition on the joined entries, if any */
  condition: unknown;
  /** true when this side stores the ids (their order is the relation's order) */
  stored: boolean;
}

function joinOf(relation: RelationInfo, steps: ComponentStep[]): Join {
  if (relation.localizations) {
    return {
      localField: 'localeGroup',
      foreignField: 'localeGroup',
      let: { self: '$_id' },
      condition: { $ne: ['$_id', '$$self'] },
      stored: false,
    };
  }
  if (relation.inverse) {
    return { localField: '_id', foreignField: relation.inverse.field, let: {}, condition: null, stored: false };
  }
  const localField = [...steps.map((step) => step.name), relation.attribute].join('.');
  return { localField, foreignField: '_id', let: {}, condition: null, stored: true };
}

/** An expression evaluating to the array of related ids stored under `base` through `steps`. */
function idsAt(base: string, steps: ComponentStep[], relation: RelationInfo): unknown {
  const prefix = base === '$' ? '$' : `${base}.`;
  const [step, ...rest] = steps;
  if (!step) {
    const value = `${prefix}${relation.attribute}`;
    return relation.multiple
      ? { $ifNull: [value, []] }
      : { $cond: [{ $eq: [{ $ifNull: [value, null] }, null] }, [], [value]] };
  }
  const inner = `${prefix}${step.name}`;
  if (!step.many) return idsAt(inner, rest, relation);
  const items = step.component
    ? {
        $filter: { input: { $ifNull: [inner, []] }, as: 'item', cond: { $eq: ['$$item.__component', step.component] } },
      }
    : { $ifNull: [inner, []] };
  return {
    $reduce: { input: items, initialValue: [], in: { $concatArrays: ['$$value', idsAt('$$this', rest, relation)] } },
  };
}
