import type { Registry, Schema } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { QueryAccess } from '../access.js';
import { compileNode, TempFields, type PipelineStage, type ResolvedRelations } from './compile.js';
import { checkFilterKeys } from './check-keys.js';
import { matchesFilter } from './evaluate.js';
import { pushNegations } from './negate.js';
import { parseFilters } from './parse.js';
import { resolveRelations, type RelatedEntries } from './push-down.js';
import type { FilterNode } from './tree.js';

export type { PipelineStage } from './compile.js';
export type { RelatedEntries } from './push-down.js';

export interface FilterInput {
  registry: Registry;
  uid: string;
  /** the qs-parsed value of `filters` */
  filters: unknown;
  access: QueryAccess;
}

/**
 * Stages that keep only the matching entries of `uid`: first one `$match` with every condition
 * that needs no other collection (so indexes serve it), then `$lookup` (let + pipeline) + `$match`
 * for deep filters through relations, then a `$project` removing the temporary fields.
 * [] when `filters` is undefined or empty. Throws ValidationError (400) on any bad input.
 * Never mutates its input. Used at the top level of a find and inside `populate[rel][filters]`.
 */
export function compileFilters(input: FilterInput): PipelineStage[] {
  const tree = filterTree(input);
  return tree ? stagesOf(tree) : [];
}

/**
 * Only what Strapi's query validator refuses in `filters` (unknown, private and unreadable keys;
 * check-keys.ts), without parsing the operators: the check of a read that never applies its
 * filters (findOne), and the first check of every read, whose other 400s come after those of
 * `sort`, `fields` and `populate`, as Strapi's database layer meets them.
 */
export function checkFilters(input: FilterInput): void {
  const schema = input.registry.contentType(input.uid);
  if (!schema) throw new ValidationError(`Unknown content-type ${input.uid}`, {});
  checkFilterKeys({ registry: input.registry, access: input.access }, schema, input.filters);
}

/**
 * compileFilters with the relation filters answered first on the related collections (one
 * query each, see push-down.ts), so the stages filter the entries by their own indexed fields.
 */
export async function compileFiltersPushedDown(input: FilterInput, related: RelatedEntries): Promise<PipelineStage[]> {
  const tree = filterTree(input);
  return tree ? stagesOf(tree, await resolveRelations(tree, related)) : [];
}

/**
 * The filter as a test of values already read (`{ _id, ...attributes }`), for lists that are not
 * stored (the configured locales). Throws ValidationError (400) on any bad input; relations never match.
 */
export function filterPredicate(input: FilterInput): (doc: Record<string, unknown>) => boolean {
  const tree = filterTree(input);
  return tree ? (doc) => matchesFilter(tree, doc) : () => true;
}

/**
 * filterPredicate for a model the registry does not hold (Strapi's own `webhook`), whose stored
 * documents are `{ _id, ...attributes }`.
 */
export function modelFilterPredicate(
  input: Omit<FilterInput, 'uid'> & { schema: Schema },
): (doc: Record<string, unknown>) => boolean {
  const tree = schemaFilterTree(input.schema, input);
  return tree ? (doc) => matchesFilter(tree, doc) : () => true;
}

/** The parsed tree in negation normal form (400 on any bad input), or null when there is no filter. */
function filterTree(input: FilterInput): FilterNode | null {
  const schema = input.registry.contentType(input.uid);
  if (!schema) throw new ValidationError(`Unknown content-type ${input.uid}`, {});
  return schemaFilterTree(schema, input);
}

function schemaFilterTree(schema: Schema, input: Omit<FilterInput, 'uid'>): FilterNode | null {
  const tree = parseFilters({ registry: input.registry, access: input.access }, schema, input.filters);
  return tree ? pushNegations(tree) : null;
}

function stagesOf(tree: FilterNode, resolved?: ResolvedRelations): PipelineStage[] {
  const temps = new TempFields();
  const stages = compileNode(tree, temps, resolved);
  if (temps.names.length > 0) stages.push({ $project: Object.fromEntries(temps.names.map((name) => [name, 0])) });
  return stages;
}
