/**
 * `costLimit`: refuses, before it is validated or run, an operation that could make the service
 * read and answer too much. graphql-query-complexity walks the operation (every alias on its own,
 * fragments and `@skip`/`@include` followed, variables coerced); each field costs 1 plus the cost
 * of its selection, and a field taking `pagination` (collections, to-many relations, repeatable
 * components) multiplies the cost of its selection by its page size (asked, or `defaultLimit`,
 * capped by `maxLimit`/`amountLimit`): roughly the number of values the answer can hold. A root
 * field (a query or mutation) also costs ROOT_FIELD_COST, since each one is a database read of
 * its own. 1,000 aliases of a 100-entry page of `{ id }` cost 1,201,000.
 */
import { GraphQLError, type DocumentNode, type GraphQLCompositeType, type GraphQLSchema } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { paginationWindow, parsePagination, type PaginationLimits } from '../../query/parse/pagination.js';
import { VALIDATION_FAILED } from './errors.js';

export interface CostedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  variables?: { readonly [name: string]: unknown } | null;
  operationName?: string | null;
}

/**
 * Fields the walk may visit (fragments are walked once per spread): a document past this many is
 * refused as too costly without being walked further.
 */
const MAX_WALKED_FIELDS = 100_000;

/** What a root field costs besides its selection: one aggregation (and a count), a few milliseconds. */
export const ROOT_FIELD_COST = 1_000;

/**
 * The error for an operation over the limit, or null. An operation that cannot be priced (bad
 * variables or arguments; the document is not validated yet) is left to validation and execution,
 * which report what is wrong with it.
 */
export function costLimitError(
  operation: CostedOperation,
  limit: number,
  limits: PaginationLimits,
): GraphQLError | null {
  let cost: number;
  try {
    cost = getComplexity({
      schema: operation.schema,
      query: operation.document,
      variables: { ...operation.variables },
      operationName: operation.operationName ?? undefined,
      estimators: [pageSizeEstimator(operation.schema, limits)],
      maxQueryNodes: MAX_WALKED_FIELDS,
    });
  } catch (err) {
    if (!(err instanceof GraphQLError) || !err.message.includes('maximum allowed number of nodes')) return null;
    return tooCostly(`The query has over ${MAX_WALKED_FIELDS} fields once its fragments are spread`, limit);
  }
  return cost > limit ? tooCostly(`The query cost ${cost}`, limit) : null;
}

function tooCostly(what: string, limit: number): GraphQLError {
  return new GraphQLError(
    `${what}: over the maximum cost of ${limit}; ask for smaller pages, fewer aliases or less nesting`,
    { extensions: { code: VALIDATION_FAILED } },
  );
}

function pageSizeEstimator(schema: GraphQLSchema, limits: PaginationLimits): ComplexityEstimator {
  const roots = new Set<GraphQLCompositeType | null | undefined>([schema.getQueryType(), schema.getMutationType()]);
  return ({ type, field, args, childComplexity }) => {
    const own = roots.has(type) && !field.name.startsWith('__') ? 1 + ROOT_FIELD_COST : 1;
    if (!field.args.some((arg) => arg.name === 'pagination')) return own + childComplexity;
    return own + pageSize(args.pagination, limits) * childComplexity;
  };
}

/**
 * The page size a `pagination` argument asks for; 1 when it is invalid (the resolver then refuses
 * it). A page without any maximum (`limit: -1` with neither `maxLimit` nor `amountLimit`) could be
 * a whole collection: priced so, it is refused unless the cost limit is off.
 */
function pageSize(pagination: unknown, limits: PaginationLimits): number {
  try {
    return paginationWindow(parsePagination(pagination ?? {}, limits)).limit ?? Number.MAX_SAFE_INTEGER;
  } catch {
    return 1;
  }
}
