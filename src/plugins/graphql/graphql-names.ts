import type { Registry } from '../../content-types/index.js';

/** A GraphQL name (spec, "Names"): what a field, argument or enum value may be called. */
export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * One start-up line per attribute whose name is no GraphQL name (`"Curriculum Name"`, `"sub-title"`):
 * REST serves it, GraphQL leaves it out of the types, filters and inputs. Strapi's GraphQL plugin
 * puts it in its schema as it is, which graphql-js then refuses ("Names must match ..."): a project
 * with such a name had no working GraphQL on Strapi.
 */
export function unnamedAttributeWarnings(registry: Registry): string[] {
  const warnings: string[] = [];
  for (const schema of registry.all()) {
    const unnamed = Object.keys(schema.attributes).filter((name) => !GRAPHQL_NAME.test(name));
    if (unnamed.length === 0) continue;
    const [verb, pronoun] = unnamed.length === 1 ? ['is not a GraphQL name', 'it'] : ['are not GraphQL names', 'them'];
    warnings.push(
      `${schema.source}: ${unnamed.map((name) => JSON.stringify(name)).join(', ')} ${verb}; GraphQL leaves ${pronoun} ` +
        `out (REST serves ${pronoun}); rename to letters, digits and "_" to have ${pronoun} in GraphQL`,
    );
  }
  return warnings;
}
