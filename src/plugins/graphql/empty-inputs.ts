import { InputTypeComposer, type SchemaComposer } from 'graphql-compose';

/**
 * Removes the mutations whose input has no field (a content-type whose every attribute is left
 * out: private, disabled by an extension, or not a GraphQL name): GraphQL has no empty input
 * object, and such a type would make the whole schema invalid (as Strapi's is then).
 * Returns the names of the mutations removed.
 */
export function dropMutationsWithEmptyInputs<TContext>(sc: SchemaComposer<TContext>): string[] {
  if (!sc.has('Mutation')) return [];
  const mutation = sc.getOTC('Mutation');
  const dropped = mutation.getFieldNames().filter((field) =>
    mutation.getFieldArgNames(field).some((arg) => {
      const type = mutation.getFieldArgTC(field, arg);
      return type instanceof InputTypeComposer && type.getFieldNames().length === 0;
    }),
  );
  mutation.removeField(dropped);
  return dropped;
}
