import type { MorphRelationKind, RelationInfo } from '../content-types/index.js';
import type { FilterInput, PipelineStage } from './filters/index.js';
import type { FilterNode } from './filters/tree.js';
import type { SortKey } from './sort/parse.js';

/**
 * The typed, validated read query (the query tree): what to select and populate
 * at every level, before it is compiled into one aggregation. Built by `parse/*`, compiled by
 * `plan/*`, and walked again by `format.ts` to shape the answer.
 */

export type PublicationState = 'live' | 'preview';

/** `page/pageSize` or `start/limit`, already defaulted and capped. */
export type Pagination =
  | { style: 'page'; page: number; pageSize: number; withCount: boolean }
  | { style: 'offset'; start: number; limit: number; withCount: boolean };

/** What is selected of a component (or of one dynamic-zone component). */
export interface ComponentSelection {
  uid: string;
  /** scalar attributes to return (`id` is always added) */
  fields: readonly string[];
  populate: PopulateMap;
  /** `populate[x][filters]`: components that do not match are left out (paths relative to the component) */
  filter: FilterNode | null;
  /** `populate[x][sort]` of a list of components (their own scalar attributes); null: the stored order */
  sort: SortKey[] | null;
  /**
   * `populate[x][start|limit]`: the window of an entry's components kept (after the filters and
   * the sort; in a dynamic zone, of each component's own); null: all
   */
  window: ComponentWindow | null;
}

export interface ComponentWindow {
  skip: number;
  /** null: no limit */
  limit: number | null;
}

/** What is selected of a content-type at one level (the top level or a populated relation). */
export interface EntrySelection {
  uid: string;
  fields: readonly string[];
  populate: PopulateMap;
}

/**
 * Populated attributes by output key: the attribute name (REST), or another key when one attribute
 * is read twice with different arguments (GraphQL aliases); the node names its `attribute`.
 */
export type PopulateMap = Record<string, PopulateNode>;

export type PopulateNode = RelationPopulate | MorphPopulate | ComponentPopulate | DynamicZonePopulate;

export interface RelationPopulate {
  kind: 'relation';
  attribute: string;
  relation: RelationInfo;
  /** `populate[x][count]=true`: only the number of related entries is answered */
  count: boolean;
  selection: EntrySelection;
  /** `$match`/`$lookup` stages of `populate[x][filters]` (compiled by the filters module) */
  filterStages: PipelineStage[];
  /** set when those filters join through a relation: compiled again per read with the relation filters answered first (plan/populate-filters.ts) */
  pushDown?: FilterInput;
  /** `populate[x][sort]`, compiled; null: the stored order */
  sort: { lookups: PipelineStage[]; sort: Record<string, 1 | -1>; cleanup: PipelineStage[] } | null;
  publicationState: PublicationState;
  /** `populate[x][start|limit]` (Strapi) or `populate[x][pagination]` (beyond Strapi: also answers `meta.pagination`) */
  window: { skip: number; limit: number | null; meta: Pagination | null } | null;
  /** name of the field the `$lookup` writes (assigned by the planner) */
  as: string;
  /** field holding the total count when `window.meta` is set */
  countAs: string;
}

/**
 * A polymorphic relation: its linked entries are read after the aggregation, one read per
 * content-type present among the links (`morph-populate.ts`), each with the request parsed
 * against that type (or its `on` fragment). `morphOne`/`morphMany` read the entries of `target`
 * whose `morphBy` links to the entry.
 */
export interface MorphPopulate {
  kind: 'morph';
  attribute: string;
  relation: MorphRelationKind;
  /** the content-type declaring the attribute */
  owner: string;
  target?: string;
  morphBy?: string;
  /** the populate request (`fields`, `populate`, `on`...), parsed for each type read */
  request: Record<string, unknown>;
  publicationState: PublicationState;
  /** the parameter's name in error messages (`populate[related]`) */
  param: string;
  /** where the read entries are put on the entry (`ResolvedMorph[]`) */
  as: string;
}

/** One entry a polymorphic relation links to, as read for the answer. */
export interface ResolvedMorph {
  type: string;
  doc: Record<string, unknown>;
  selection: EntrySelection;
}

export interface ComponentPopulate {
  kind: 'component';
  attribute: string;
  repeatable: boolean;
  /** `populate[x][count]=true`: only the number of (matching) components is answered */
  count: boolean;
  selection: ComponentSelection;
}

export interface DynamicZonePopulate {
  kind: 'dynamiczone';
  attribute: string;
  /** per component uid of the zone; components of other uids are left out (`on` fragments) */
  components: Record<string, ComponentSelection>;
}

/** A whole read of one content-type. */
export interface ReadTree {
  selection: EntrySelection;
  /** `$match` conditions on the entry itself (publication state, locale) */
  match: Record<string, unknown>;
  /** the opt-in locale fallback: one entry per locale group ([] without it) */
  localeStages: PipelineStage[];
  filterStages: PipelineStage[];
  sort: { lookups: PipelineStage[]; sort: Record<string, 1 | -1>; cleanup: PipelineStage[] };
  pagination: Pagination;
  publicationState: PublicationState;
}
