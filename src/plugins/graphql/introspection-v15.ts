/**
 * Strapi 4.26 runs graphql-js 15: what its introspection answers is graphql 15's. Client tooling
 * asks for exactly that: `getIntrospectionQuery({ specifiedByUrl: true })` of graphql 15 (as
 * graphql-codegen and Apollo's tooling on graphql 15 send it) selects `__Type.specifiedByUrl`,
 * which graphql 16 renamed `specifiedByURL` (the query would be refused), and code generators
 * diff the answer. So the schema answers graphql 15.8's meta-types and directives:
 * - `__Type.specifiedByUrl` (not `specifiedByURL`), no `__Type.isOneOf`;
 * - no `__Directive.isDeprecated`/`deprecationReason`, no `includeDeprecated` on `__Schema.directives`,
 *   no `DIRECTIVE_DEFINITION` directive location;
 * - the directives `@include`, `@skip`, `@deprecated`, `@specifiedBy`, in that order, with
 *   graphql 15's locations and texts (no `@oneOf`).
 */
import {
  __Directive,
  __DirectiveLocation,
  __Schema,
  __Type,
  DirectiveLocation,
  GraphQLDeprecatedDirective,
  GraphQLDirective,
  GraphQLIncludeDirective,
  GraphQLNonNull,
  GraphQLSchema,
  GraphQLSkipDirective,
  GraphQLString,
  type GraphQLEnumValue,
  type GraphQLFieldMap,
} from 'graphql';

const deprecatedDirective = new GraphQLDirective({
  ...GraphQLDeprecatedDirective.toConfig(),
  locations: GraphQLDeprecatedDirective.locations.filter((at) => at !== DirectiveLocation.DIRECTIVE_DEFINITION),
});

const specifiedByDirective = new GraphQLDirective({
  name: 'specifiedBy',
  description: 'Exposes a URL that specifies the behaviour of this scalar.',
  locations: [DirectiveLocation.SCALAR],
  args: {
    url: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'The URL that specifies the behaviour of this scalar.',
    },
  },
});

const DIRECTIVES = [GraphQLIncludeDirective, GraphQLSkipDirective, deprecatedDirective, specifiedByDirective];

/** `fields` rewritten in place (graphql-js hands out the map it keeps), keeping their order. */
function reshapeFields(fields: GraphQLFieldMap<unknown, unknown>, change: (name: string) => string | null): void {
  const entries = Object.entries(fields);
  for (const [name] of entries) delete fields[name];
  for (const [name, field] of entries) {
    const renamed = change(name);
    if (renamed !== null) fields[renamed] = renamed === name ? field : { ...field, name: renamed };
  }
}

let reshaped = false;

/**
 * The meta-types are graphql-js singletons that every schema of the process shares: they are
 * reshaped once, the first time a schema is built.
 */
function reshapeMetaTypes(): void {
  if (reshaped) return;
  reshaped = true;
  reshapeFields(__Type.getFields(), (name) =>
    name === 'isOneOf' ? null : name === 'specifiedByURL' ? 'specifiedByUrl' : name,
  );
  __Type.description = __Type.description?.replace('`specifiedByURL`', '`specifiedByUrl`');
  reshapeFields(__Directive.getFields(), (name) =>
    name === 'isDeprecated' || name === 'deprecationReason' ? null : name,
  );
  const directives = __Schema.getFields().directives;
  if (directives) directives.args = [];
  const locations = __DirectiveLocation.getValues() as GraphQLEnumValue[];
  const definition = locations.findIndex((value) => value.name === 'DIRECTIVE_DEFINITION');
  if (definition !== -1) locations.splice(definition, 1);
}

/** `schema` with graphql 15's directives, answering graphql 15's introspection. */
export function withGraphQL15Introspection(schema: GraphQLSchema): GraphQLSchema {
  reshapeMetaTypes();
  return new GraphQLSchema({ ...schema.toConfig(), directives: DIRECTIVES });
}
