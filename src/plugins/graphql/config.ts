/** `plugins.graphql.config`, typed, with Strapi v4's defaults and the seed's limits. */
import type { ServiceConfig } from '../../config/index.js';

export interface GraphQLConfig {
  endpoint: string;
  shadowCRUD: boolean;
  playgroundAlways: boolean;
  /** maximum operation depth, envelopes not counted (seed: 7) */
  depthLimit: number;
  /** largest operation cost, page sizes times fields (see cost-limit.ts); 0: no limit */
  costLimit: number;
  /** maximum items per list and `pageSize` (seed: 100) */
  amountLimit: number;
  /** page size when none is asked */
  defaultLimit: number;
  /** -1: no maximum besides amountLimit */
  maxLimit: number;
  tracing: boolean;
}

const DEFAULT_COST_LIMIT = 100_000;

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function graphqlConfig(config: ServiceConfig): GraphQLConfig {
  const raw = config.plugins.graphql?.config ?? {};
  const apollo =
    raw.apolloServer !== null && typeof raw.apolloServer === 'object'
      ? (raw.apolloServer as Record<string, unknown>)
      : {};
  return {
    endpoint: typeof raw.endpoint === 'string' && raw.endpoint.startsWith('/') ? raw.endpoint : '/graphql',
    shadowCRUD: raw.shadowCRUD !== false,
    playgroundAlways: raw.playgroundAlways === true,
    depthLimit: num(raw.depthLimit, 7),
    costLimit: num(raw.costLimit, DEFAULT_COST_LIMIT),
    amountLimit: num(raw.amountLimit, 100),
    defaultLimit: num(raw.defaultLimit, 10),
    maxLimit: num(raw.maxLimit, -1),
    tracing: apollo.tracing === true,
  };
}

/** The largest page a GraphQL list may have: `maxLimit` (when set) capped by `amountLimit`. */
export function effectiveMaxLimit(gql: GraphQLConfig): number {
  const caps = [gql.maxLimit, gql.amountLimit].filter((n) => n > 0);
  return caps.length > 0 ? Math.min(...caps) : -1;
}
