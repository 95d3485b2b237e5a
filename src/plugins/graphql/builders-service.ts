/**
 * `strapi.plugin('graphql').service('builders')` of Strapi v4, the part custom resolvers use:
 * `utils.transformArgs(args, { contentType, usePagination })`, which turns a GraphQL query's
 * arguments into `strapi.entityService` parameters (Strapi's docs pair it with the `format`
 * service's `toEntityResponseCollection`). The schema builders themselves are the service's own.
 */
import { filterOperators } from './filter-operators.js';
import type { Registry } from '../../content-types/index.js';
import type { GraphQLConfig } from './config.js';
import { toRestFilters } from './filters.js';
import { graphqlWindow } from './pagination.js';
import { isRecord } from './values.js';

interface TransformOptions {
  /** the content-type as `strapi.contentTypes` / `strapi.getModel` describe it (its `uid` is read) */
  contentType?: { uid?: unknown } | null;
  usePagination?: boolean;
}

export function createBuildersService(registry: Registry, gql: GraphQLConfig) {
  return {
    filters: { operators: filterOperators() },
    utils: {
      /**
       * `pagination` becomes `start` and `limit` (Strapi's defaults and limits for GraphQL lists,
       * `amountLimit` on top), `filters` the REST filters object (`{ title: { $containsi } }`);
       * every other argument (`sort`, `publicationState`, `locale`...) is kept as given.
       */
      transformArgs(args: unknown, { contentType, usePagination = false }: TransformOptions = {}) {
        const { pagination, filters, ...rest } = isRecord(args) ? args : {};
        const out: Record<string, unknown> = { ...rest };
        if (usePagination) {
          const window = graphqlWindow(pagination, gql);
          out.start = window.start;
          if (window.readLimit !== -1) out.limit = window.readLimit;
        }
        if (filters !== undefined && filters !== null) {
          const schema = typeof contentType?.uid === 'string' ? registry.schema(contentType.uid) : undefined;
          out.filters = schema ? toRestFilters(registry, schema, filters) : filters;
        }
        return out;
      },
    },
  };
}
