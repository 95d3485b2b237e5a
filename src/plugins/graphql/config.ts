/** `plugins.graphql.config`, typed, with Strapi v4's defaults and the seed's limits. */
import { ConfigError, type ServiceConfig } from '../../config/index.js';

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
  /** Apollo's automatic persisted queries (`apolloServer.persistedQueries`; on unless `false`) */
  persistedQueries: boolean;
}

const DEFAULT_COST_LIMIT = 100_000;

/** Strapi's limits are numbers; one read from the environment (a numeric string) is taken as its number. */
function limit(config: ServiceConfig, key: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= min) return n;
  throw new ConfigError(
    config.fileOf('plugins', `graphql.config.${key}`),
    `graphql.config.${key}`,
    `must be an integer >= ${min}, got ${JSON.stringify(value)}`,
  );
}

function endpoint(config: ServiceConfig, value: unknown): string {
  if (value === undefined) return '/graphql';
  if (typeof value === 'string' && value.startsWith('/')) return value;
  throw new ConfigError(
    config.fileOf('plugins', 'graphql.config.endpoint'),
    'graphql.config.endpoint',
    `must be a path such as "/graphql", got ${JSON.stringify(value)}`,
  );
}

const read = new WeakMap<ServiceConfig, GraphQLConfig>();

/**
 * Read before the database starts: a value that cannot be used stops start-up naming its file and
 * key. Read once per configuration (resolvers ask for the page limits on every list).
 */
export function graphqlConfig(config: ServiceConfig): GraphQLConfig {
  let gql = read.get(config);
  if (!gql) {
    gql = readGraphqlConfig(config);
    read.set(config, gql);
  }
  return gql;
}

function readGraphqlConfig(config: ServiceConfig): GraphQLConfig {
  const raw = config.plugins.graphql?.config ?? {};
  const apollo =
    raw.apolloServer !== null && typeof raw.apolloServer === 'object'
      ? (raw.apolloServer as Record<string, unknown>)
      : {};
  return {
    endpoint: endpoint(config, raw.endpoint),
    shadowCRUD: raw.shadowCRUD !== false,
    playgroundAlways: raw.playgroundAlways === true,
    depthLimit: limit(config, 'depthLimit', raw.depthLimit, 7, 1),
    costLimit: limit(config, 'costLimit', raw.costLimit, DEFAULT_COST_LIMIT, 0),
    amountLimit: limit(config, 'amountLimit', raw.amountLimit, 100, 1),
    defaultLimit: limit(config, 'defaultLimit', raw.defaultLimit, 10, 1),
    maxLimit: limit(config, 'maxLimit', raw.maxLimit, -1, -1),
    tracing: apollo.tracing === true,
    persistedQueries: apollo.persistedQueries !== false,
  };
}

/** The largest page a GraphQL list may have: `maxLimit` (when set) capped by `amountLimit`. */
export function effectiveMaxLimit(gql: GraphQLConfig): number {
  const caps = [gql.maxLimit, gql.amountLimit].filter((n) => n > 0);
  return caps.length > 0 ? Math.min(...caps) : -1;
}
