/**
 * `depthLimit`: rejects fields nested deeper than the limit, as graphql-depth-limit does (Strapi's
 * choice: top-level fields at depth 0, an error at the first field of each branch past the limit,
 * `'<operation name>' exceeds maximum operation depth of N`, introspection fields ignored), except
 * that the `data`, `attributes` and `meta` envelopes do not add a level (the seed's rule), so a
 * limit of 7 allows seven hops of real content.
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

const ENVELOPES = new Set(['data', 'attributes', 'meta']);

export function depthLimitRule(maxDepth: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    // a fragment spread many times at one depth is walked once: fragments spreading each other
    // twice per level would otherwise cost 2^levels walks
    const walked = new Set<string>();
    const visit = (set: SelectionSetNode, depth: number, operation: string, visiting: ReadonlySet<string>): void => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith('__')) continue;
          if (depth > maxDepth) {
            context.reportError(
              new GraphQLError(`'${operation}' exceeds maximum operation depth of ${maxDepth}`, { nodes: [selection] }),
            );
            continue;
          }
          if (selection.selectionSet)
            visit(selection.selectionSet, ENVELOPES.has(selection.name.value) ? depth : depth + 1, operation, visiting);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          visit(selection.selectionSet, depth, operation, visiting);
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          const key = `${operation}\0${name}\0${depth}`;
          if (fragment && !visiting.has(name) && !walked.has(key)) {
            walked.add(key);
            visit(fragment.selectionSet, depth, operation, new Set([...visiting, name]));
          }
        }
      }
    };
    return {
      OperationDefinition(node) {
        visit(node.selectionSet, 0, node.name?.value ?? '', new Set());
        return false;
      },
    };
  };
}
