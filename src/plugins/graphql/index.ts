/**
 * The GraphQL plugin (Strapi v4 `@strapi/plugin-graphql` behaviour): shadow CRUD over every
 * content-type, executed by the same operations and query engine as REST. See README.md.
 */
import type { GraphQLSchema } from 'graphql';
import { NotFoundError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import type { Plugin } from '../types.js';
import { effectiveMaxLimit, graphqlConfig, type GraphQLConfig } from './config.js';
import { enumNameWarnings } from './enum-values.js';
import { ExtensionError, ExtensionService } from './extension.js';
import { unnamedAttributeWarnings } from './graphql-names.js';
import { appAskedForGraphql } from './asked-for.js';
import { createBuildersService } from './builders-service.js';
import { createFormatService } from './format-service.js';
import { createUtilsService } from './utils-service.js';
import { createInternalsService } from './internals-service.js';
import { graphqlEndpoint } from './http.js';
import { playground } from './playground.js';
import { buildSchema, type SchemaInputs } from './schema.js';
import { instrumentSchema } from './tracing.js';
import { GRAPHQL_ROUTE, setRequestRoute } from '../../operations/request-route.js';

export { ExtensionError, ExtensionService } from './extension.js';
export type {
  Extension,
  ExtensionFactory,
  ResolverConfig,
  Policy,
  ResolverMiddleware,
  ShadowCrudControl,
  FieldControl,
} from './extension.js';
export type { GraphQLContext } from './context.js';

/**
 * The service a resolver sees: REST's page limits replaced by GraphQL's (defaultLimit, maxLimit
 * capped by amountLimit), and a populate depth that admits whatever `depthLimit` lets through.
 */
function graphqlService(ctx: ServiceContext, gql: GraphQLConfig): ServiceContext {
  const rest = ctx.config.api.rest;
  const limits = {
    defaultLimit: gql.defaultLimit,
    maxLimit: effectiveMaxLimit(gql),
    maxPopulateDepth: Math.max(rest.maxPopulateDepth, gql.depthLimit),
  };
  const config = { ...ctx.config, api: { ...ctx.config.api, rest: { ...rest, ...limits } } };
  return {
    config,
    registry: ctx.registry,
    models: ctx.models,
    connection: ctx.connection,
    logger: ctx.logger,
    i18n: ctx.i18n,
    authenticate: ctx.authenticate,
    lifecycles: ctx.lifecycles,
    credentials: ctx.credentials,
    ...(ctx.mediaUrlSigner ? { mediaUrlSigner: ctx.mediaUrlSigner } : {}),
    ...(ctx.events ? { events: ctx.events } : {}),
    ...(ctx.sanitizeAppInput ? { sanitizeAppInput: ctx.sanitizeAppInput } : {}),
    ...(ctx.appPluginService ? { appPluginService: ctx.appPluginService } : {}),
  };
}

/**
 * Builds the schema; when that fails with extensions registered and the schema builds without
 * them, the extensions are to blame: an ExtensionError says so.
 */
function buildSchemaBlaming(inputs: SchemaInputs): GraphQLSchema {
  try {
    return buildSchema(inputs);
  } catch (err) {
    if (inputs.extension.revision === 0) throw err;
    buildSchema({ ...inputs, extension: new ExtensionService() });
    throw new ExtensionError(err instanceof Error ? err.message : String(err));
  }
}

/** Each running service's schema getter, keyed by its models (the plugin object is shared by services). */
const schemaGetters = new WeakMap<object, () => GraphQLSchema>();
/** Services whose app did not ask for GraphQL and whose schemas GraphQL cannot express: not served. */
const notServed = new WeakSet<object>();

export const graphqlPlugin: Plugin = {
  name: 'graphql',
  checkConfig(config) {
    graphqlConfig(config);
  },
  register(ctx) {
    const gql = graphqlConfig(ctx.config);
    const extension = new ExtensionService();
    ctx.setService('extension', extension);
    ctx.setService('format', createFormatService(ctx.registry));
    ctx.setService('utils', createUtilsService(ctx.registry));
    ctx.setService('internals', createInternalsService());
    ctx.setService('builders', createBuildersService(ctx.registry, gql));
    const service = graphqlService(ctx, gql);
    let built: { revision: number; schema: GraphQLSchema } | null = null;
    const traced = (schema: GraphQLSchema) => (gql.tracing ? instrumentSchema(schema) : schema);
    const schema = (): GraphQLSchema => {
      if (!built || built.revision !== extension.revision) {
        built = {
          revision: extension.revision,
          schema: traced(
            buildSchemaBlaming({
              registry: ctx.registry,
              gql,
              extension,
              usersPermissions: ctx.config.plugins['users-permissions']?.enabled !== false,
              i18n: ctx.i18n !== null,
            }),
          ),
        };
      }
      return built.schema;
    };
    schemaGetters.set(ctx.models, schema);
    if (gql.playgroundAlways || ctx.config.env !== 'production') {
      const page = playground(gql.endpoint);
      // an OPTIONS is the endpoint's (the page's router would answer it with its own Allow)
      ctx.rootRouter.use((req, res, next) =>
        notServed.has(ctx.models) || req.method === 'OPTIONS' ? next() : page(req, res, next),
      );
    }
    ctx.rootRouter.all(
      gql.endpoint,
      (req, _res, next) => {
        if (notServed.has(ctx.models)) return next('route');
        // Strapi's route matches `/GRAPHQL` (koa-router ignores case), Apollo's own path check
        // does not: nothing answers it, a 404 (an OPTIONS is still the router's)
        if (req.path.replace(/\/$/, '') !== gql.endpoint.replace(/\/$/, ''))
          return next(req.method === 'OPTIONS' ? 'route' : new NotFoundError());
        setRequestRoute(req, GRAPHQL_ROUTE);
        next();
      },
      graphqlEndpoint({
        service,
        logger: ctx.logger,
        depthLimit: gql.depthLimit,
        costLimit: gql.costLimit,
        tracing: gql.tracing,
        persistedQueries: gql.persistedQueries,
        schema,
        koaContextOf: ctx.koaContextOf,
      }),
    );
  },
  // strapi-plugin-slugify's extension reads the settings its own bootstrap builds
  bootstrapsLate: true,
  /** builds the schema at start-up (after the app's `register`), so a bad extension fails the start, not a request */
  async bootstrap(ctx) {
    try {
      schemaGetters.get(ctx.models)?.();
    } catch (err) {
      if (appAskedForGraphql(ctx.config)) throw err;
      notServed.add(ctx.models);
      ctx.logger.warn(
        `GraphQL is not served: its schema cannot be built from this app's schemas (${err instanceof Error ? err.message : String(err)}); ` +
          'the app does not install @strapi/plugin-graphql, so its REST API runs without it',
      );
      return;
    }
    for (const warning of unnamedAttributeWarnings(ctx.registry)) ctx.logger.warn(warning);
    for (const warning of enumNameWarnings(ctx.registry)) ctx.logger.warn(warning);
  },
};
