/**
 * `depthLimit`: a validation rule rejecting operations nested deeper than the limit, counted as
 * graphql-depth-limit does (top-level fields at depth 0) but without the `data`, `attributes` and
 * `meta` envelope levels (the seed's rule, Deviation 5), so a limit of 7 allows seven relation hops
 * of real content. Fragments are followed; introspection fields are not counted.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

const ENVELOPES = new Set(['data', 'attributes', 'meta']);

export function depthLimitRule(maxDepth: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const depthOf = (set: SelectionSetNode, depth: number, visiting: Set<string>): number => {
      let max = depth;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith('__')) continue;
          if (!selection.selectionSet) {
            max = Math.max(max, depth);
            continue;
          }
          const next = ENVELOPES.has(selection.name.value) ? depth : depth + 1;
          max = Math.max(max, depthOf(selection.selectionSet, next, visiting));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(selection.selectionSet, depth, visiting));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || visiting.has(name)) continue;
          max = Math.max(max, depthOf(fragment.selectionSet, depth, new Set([...visiting, name])));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`'${node.name?.value ?? ''}' exceeds maximum operation depth of ${maxDepth}`, { nodes: [node] }));
        }
      },
    };
  };
}
