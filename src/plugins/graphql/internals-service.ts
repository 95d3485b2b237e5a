/**
 * `strapi.plugin('graphql').service('internals')` of Strapi 4.26, as far as plugins use it to
 * declare their own queries like the generated ones (strapi-plugin-comments: `args.PaginationArg`,
 * `args.SortArg`): the nexus arguments of the generated queries, `helpers.getEnabledScalars()` (the
 * scalars that have filter operators) and the scalar types.
 */
import { arg, list } from 'nexus';
import { DateScalar, DateTimeScalar, JSONScalar, LongScalar, TimeScalar, UploadScalar } from './scalars.js';

/** Strapi's GraphQL scalars that get a filters input, in its order. */
const FILTERABLE_SCALARS = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'];

export function createInternalsService() {
  return {
    args: {
      SortArg: arg({ type: list('String'), default: [] }),
      PaginationArg: arg({ type: 'PaginationArg', default: {} }),
      PublicationStateArg: arg({ type: 'PublicationState', default: 'live' }),
    },
    scalars: {
      JSON: JSONScalar,
      DateTime: DateTimeScalar,
      Time: TimeScalar,
      Date: DateScalar,
      Long: LongScalar,
      Upload: UploadScalar,
    },
    helpers: { getEnabledScalars: () => [...FILTERABLE_SCALARS] },
  };
}
