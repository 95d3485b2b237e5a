/** What every resolver receives, built once per request by the HTTP handler. */
import type { Request } from 'express';
import type { FieldNode } from 'graphql';
import type { RequestAuth } from '../../access/ability.js';
import { authState, stateUser, type StrapiAuthState } from '../../access/auth-state.js';
import type { OperationContext } from '../../operations/index.js';
import type { ServiceContext } from '../../service-context.js';
import { graphqlConfig } from './config.js';
import type { GraphQLPageLimits } from './pagination.js';

export type GraphQLContext = {
  /** the service, its REST limits replaced by GraphQL's (defaultLimit, maxLimit ∧ amountLimit) */
  service: ServiceContext;
  auth: RequestAuth;
  req: Request;
  /** Strapi's `ctx.state`, which resolvers of Strapi apps read (`context.state.user`) */
  state: { user?: unknown; auth: StrapiAuthState };
  /**
   * Strapi's `context.koaContext`: the request's Koa context (headers, cookies, `ctx.set`), made
   * when a resolver first reads it; its `state` is the context's. The answer stays GraphQL's.
   */
  readonly koaContext: object;
  /**
   * Errors of nested relation fields found while a top-level resolver read its selection (a bad
   * `sort` or `filters` argument): the field's own resolver throws it, so only that field is null.
   */
  fieldErrors?: WeakMap<FieldNode, Error>;
};

/** The error a nested field's arguments met, if any. */
export function fieldError(ctx: GraphQLContext, node: FieldNode | undefined): Error | undefined {
  return node ? ctx.fieldErrors?.get(node) : undefined;
}

/** A resolver context for a request. */
export function graphqlContext(
  service: ServiceContext,
  auth: RequestAuth,
  req: Request,
  koaContextOf: (req: Request, state: object) => object,
): GraphQLContext {
  const state = { user: stateUser(auth), auth: authState(auth) };
  let koaContext: object | undefined;
  return {
    service,
    auth,
    req,
    state,
    get koaContext() {
      koaContext ??= koaContextOf(req, state);
      return koaContext;
    },
  };
}

/** The operation context of a resolver: the service plus what this caller may read. */
export function operationContext(ctx: GraphQLContext): OperationContext {
  const { ability } = ctx.auth;
  return { ...ctx.service, access: { canRead: (uid) => ability.can(`${uid}.find`) } };
}

/** GraphQL's page limits: `defaultLimit`, `maxLimit` and `amountLimit` of `plugins.graphql.config`. */
export function pageLimits(ctx: GraphQLContext): GraphQLPageLimits {
  const { defaultLimit, maxLimit, amountLimit } = graphqlConfig(ctx.service.config);
  return { defaultLimit, maxLimit, amountLimit };
}
