/**
 * Extensions written as Strapi's are: `types` (and `plugins`) built with nexus, the schema builder
 * Strapi's GraphQL plugin uses. The schema built here is merged into nexus (`mergeSchema`), so
 * `extendType({ type: 'Query' | 'Article' | … })`, `objectType`, `inputObjectType`,
 * `extendInputType`… apply to it, its own resolvers kept. Strapi's scalars get their nexus methods
 * (`t.json()`, `t.dateTime()`, `t.date()`, `t.time()`, `t.long()`, `t.upload()`).
 */
import { isScalarType, type GraphQLSchema } from 'graphql';
import { asNexusMethod, makeSchema } from 'nexus';

/** Strapi's scalar → nexus method names. */
const SCALAR_METHODS: Readonly<Record<string, string>> = {
  JSON: 'json',
  DateTime: 'dateTime',
  Date: 'date',
  Time: 'time',
  Long: 'long',
  Upload: 'upload',
};

type NexusTypes = Parameters<typeof makeSchema>[0]['types'];
type NexusPlugins = NonNullable<Parameters<typeof makeSchema>[0]['plugins']>;

export function withNexusTypes(schema: GraphQLSchema, types: unknown[], plugins: unknown[]): GraphQLSchema {
  const scalars = Object.entries(SCALAR_METHODS).flatMap(([name, method]) => {
    const type = schema.getType(name);
    return type && isScalarType(type) ? [asNexusMethod(type, method)] : [];
  });
  return makeSchema({
    types: [...scalars, ...types] as NexusTypes,
    plugins: plugins as NexusPlugins,
    mergeSchema: { schema, mergeTypes: true },
    outputs: false,
    shouldGenerateArtifacts: false,
    features: { abstractTypeStrategies: { resolveType: true, __typename: true, isTypeOf: true } },
  });
}
