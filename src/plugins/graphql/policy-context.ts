/**
 * What a resolversConfig policy receives, as Strapi 4.26's GraphQL plugin builds it
 * (`createGraphQLPolicyContext`): the resolver's arguments, the request's `state` (`state.user`),
 * `http` (the Koa context), and `type`/`is()` of Strapi's policy contexts; called
 * `(policyContext, config, { strapi })`.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from './context.js';

export interface GraphQLPolicyContext {
  readonly parent: unknown;
  readonly args: Record<string, unknown>;
  readonly context: GraphQLContext;
  readonly info: GraphQLResolveInfo;
  readonly state: GraphQLContext['state'];
  readonly http: object;
  readonly type: 'graphql';
  is(type: string): boolean;
}

export function graphqlPolicyContext(
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): GraphQLPolicyContext {
  return {
    parent,
    args,
    context,
    info,
    state: context.state,
    // a getter: the Koa context is made only when read
    get http() {
      return context.koaContext;
    },
    type: 'graphql',
    is: (type) => type === 'graphql',
  };
}

/** Strapi lets a resolver run when each policy answers `true` or nothing. */
export function policyPassed(result: unknown): boolean {
  return result === true || result === undefined;
}
