/**
 * A subscription operation, which the schema has no root type for: once the document has
 * validated, Strapi 4.26's Apollo Server 3 (graphql 15) answers it with execute's error, a 400
 * located at the operation.
 */
import { GraphQLError, getOperationAST, type DocumentNode } from 'graphql';

export function subscriptionError(document: DocumentNode, operationName?: string | null): GraphQLError | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'subscription') return null;
  return new GraphQLError('Schema is not configured for subscriptions.', {
    nodes: operation,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
