/**
 * Builds the whole GraphQL schema of a service: built-in types, shadow CRUD of every exposed
 * content-type (in registry order: plugins, then the i18n locales, then the api types, as Strapi),
 * the users-permissions fields, then the extensions; every Query/Mutation field is wrapped with its
 * permission check and its resolversConfig (auth, policies, middlewares).
 */
import {
  defaultFieldResolver,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { SchemaComposer, type ObjectTypeComposerFieldConfigAsObjectDefinition } from 'graphql-compose';
import { verifyRouteAuth } from '../../access/route-auth.js';
import type { Registry } from '../../content-types/index.js';
import { ForbiddenError, fromStrapiUtilsError, isAppError, PolicyError } from '../../errors/index.js';
import { addBuiltinTypes, addGenericMorph, addLocaleTypes, localeQueryFields } from './builtin-types.js';
import type { GraphQLConfig } from './config.js';
import { addComponentTypes, addContentTypeTypes, typeNames, type TypeBuildContext } from './content-type-types.js';
import type { GraphQLContext } from './context.js';
import { dropMutationsWithEmptyInputs } from './empty-inputs.js';
import { exposedContentTypes, hasShadowCrud, UPLOAD_FILE_UID } from './exposed.js';
import {
  ExtensionError,
  type AppliedExtensions,
  type ExtensionService,
  type NamedPolicy,
  type NamedPolicyLookup,
  type Policy,
  type Resolver,
  type ResolverConfig,
} from './extension.js';
import { entityName, GENERIC_MORPH, LOCALE_CODE_SCALAR } from './naming.js';
import { fileAttributes, fileRelated, morphType } from './upload-related.js';
import { withNexusTypes } from './nexus-types.js';
import { graphqlPolicyContext, policyPassed, type GraphQLPolicyContext } from './policy-context.js';
import { withGraphQL15Introspection } from './introspection-v15.js';
import { shadowMutations, shadowQueries, type RootField } from './shadow-crud.js';
import { UPLOAD_FILE_CRUD_ACTIONS, uploadMutations, withStoredBytesRemoval } from './upload-mutations.js';
import { addUsersPermissionsTypes, usersPermissionsMutations, usersPermissionsQueries } from './users-permissions.js';

type Composer = SchemaComposer<GraphQLContext>;
type Resolve = GraphQLFieldResolver<unknown, GraphQLContext, Args>;
type Args = Record<string, unknown>;

export interface SchemaInputs {
  registry: Registry;
  gql: GraphQLConfig;
  extension: ExtensionService;
  /** users-permissions is on (its types and mutations exist) */
  usersPermissions: boolean;
  i18n: boolean;
}

function addFields(
  sc: Composer,
  root: 'Query' | 'Mutation',
  fields: Record<string, RootField>,
  actions: Map<string, string | null>,
): void {
  for (const [name, field] of Object.entries(fields)) {
    const { action, ...config } = field;
    actions.set(`${root}.${name}`, action);
    (root === 'Query' ? sc.Query : sc.Mutation).addFields({
      [name]: config as ObjectTypeComposerFieldConfigAsObjectDefinition<unknown, GraphQLContext>,
    });
  }
}

export function buildSchema(inputs: SchemaInputs): GraphQLSchema {
  const { registry, extension } = inputs;
  const sc: Composer = new SchemaComposer<GraphQLContext>();
  addBuiltinTypes(sc);
  const contentTypes = exposedContentTypes(registry).filter((ct) => extension.isTypeEnabled(ct.uid));
  const components = registry.listComponents();
  const names = typeNames(contentTypes, components);
  const ctx: TypeBuildContext = { sc, registry, extension, names };
  for (const component of components) addComponentTypes(ctx, component);
  for (const ct of contentTypes) addContentTypeTypes(ctx, ct);
  sc.createInputTC({ name: 'FileInfoInput', fields: { name: 'String', alternativeText: 'String', caption: 'String' } });
  if (inputs.i18n) addLocaleTypes(sc);
  if (inputs.usersPermissions) addUsersPermissionsTypes(sc);
  addGenericMorph(
    sc,
    [...names.values()]
      .concat(inputs.i18n ? ['I18NLocale'] : [])
      .concat(['UploadFolder'])
      .sort(),
    morphType(names),
  );
  if (names.has(UPLOAD_FILE_UID)) addUploadFileExtras(sc, names.get(UPLOAD_FILE_UID) ?? '', names);

  const actions = new Map<string, string | null>();
  const shadow = inputs.gql.shadowCRUD;
  const queriesOf = (ct: (typeof contentTypes)[number]) =>
    shadow && hasShadowCrud(ct) ? shadowQueries(registry, extension, ct, names.get(ct.uid) ?? '') : {};
  const mutationsOf = (ct: (typeof contentTypes)[number]) =>
    shadow && hasShadowCrud(ct) ? shadowMutations(registry, extension, ct, names.get(ct.uid) ?? '') : {};
  const pluginTypes = contentTypes.filter((ct) => ct.namespace === 'plugin');
  const apiTypes = contentTypes.filter((ct) => ct.namespace === 'api');
  for (const ct of pluginTypes) {
    addFields(sc, 'Query', queriesOf(ct), actions);
  }
  if (inputs.i18n && shadow) addFields(sc, 'Query', localeQueryFields(), actions);
  for (const ct of apiTypes) addFields(sc, 'Query', queriesOf(ct), actions);
  if (inputs.usersPermissions) addFields(sc, 'Query', usersPermissionsQueries(), actions);

  // Mutations in Strapi's order: shadow CRUD by content-type (plugins', then api), then the plugins'
  // own mutations (upload, users-permissions), then i18n's `create<T>Localization`.
  const localizations: Record<string, RootField> = {};
  const crudOf = (ct: (typeof contentTypes)[number]) => {
    const fields = mutationsOf(ct);
    for (const [name, field] of Object.entries(fields)) {
      if (name.endsWith('Localization')) {
        localizations[name] = field;
        delete fields[name];
      }
    }
    return fields;
  };
  for (const ct of pluginTypes) {
    if (ct.uid === 'plugin::users-permissions.user' || ct.uid === 'plugin::users-permissions.role') continue;
    addFields(sc, 'Mutation', ct.uid === UPLOAD_FILE_UID ? withStoredBytesRemoval(crudOf(ct)) : crudOf(ct), actions);
  }
  for (const ct of apiTypes) addFields(sc, 'Mutation', crudOf(ct), actions);
  if (shadow && contentTypes.some((ct) => ct.uid === UPLOAD_FILE_UID))
    addFields(sc, 'Mutation', uploadMutations(), actions);
  if (inputs.usersPermissions) addFields(sc, 'Mutation', usersPermissionsMutations(registry), actions);
  addFields(sc, 'Mutation', localizations, actions);
  for (const [key, action] of Object.entries(UPLOAD_FILE_CRUD_ACTIONS)) if (actions.has(key)) actions.set(key, action);

  const { resolversConfig, nexusTypes, nexusPlugins, laterResolvers } = extension.apply(sc);
  dropMutationsWithEmptyInputs(sc);
  const named = (entry: NamedPolicy) => extension.namedPolicies(entry);
  wrapRoot(sc, 'Query', actions, resolversConfig, named);
  wrapRoot(sc, 'Mutation', actions, resolversConfig, named);
  // Strapi's i18n registers the scalar whether or not a type is localized: extensions' types use it
  if (inputs.i18n) sc.addSchemaMustHaveType(sc.get(LOCALE_CODE_SCALAR));
  const built = sc.buildSchema();
  const merged =
    nexusTypes.length === 0 && nexusPlugins.length === 0 ? built : withNexusTypes(built, nexusTypes, nexusPlugins);
  setLaterResolvers(merged, laterResolvers);
  if (merged !== built) wrapAddedRootFields(merged, built, resolversConfig, named);
  return withGraphQL15Introspection(merged);
}

/** The extensions' resolvers of fields their nexus types added; one naming no field stops start-up. */
function setLaterResolvers(schema: GraphQLSchema, resolvers: AppliedExtensions['laterResolvers']): void {
  for (const { type, field, resolve } of resolvers) {
    const object = schema.getType(type);
    const target = isObjectType(object) ? object.getFields()[field] : undefined;
    if (!target) throw new ExtensionError(`Cannot extend field '${field}' from type '${type}'. Field does not exist.`);
    target.resolve = resolve;
  }
}

/** Root fields nexus types added get their resolversConfig (auth scope, policies, middlewares) too. */
function wrapAddedRootFields(
  schema: GraphQLSchema,
  before: GraphQLSchema,
  configs: Record<string, ResolverConfig>,
  named: NamedPolicyLookup,
): void {
  for (const root of ['Query', 'Mutation'] as const) {
    const fields = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields() ?? {};
    const existing = (root === 'Query' ? before.getQueryType() : before.getMutationType())?.getFields() ?? {};
    for (const [name, field] of Object.entries(fields)) {
      if (name in existing) continue;
      field.resolve = guarded(
        (field.resolve ?? defaultFieldResolver) as Resolve,
        undefined,
        configs[`${root}.${name}`] ?? {},
        named,
      );
    }
  }
}

/**
 * Strapi's upload file has `related` (upload-related.ts), which the upload plugin does not store.
 * It is an attribute of Strapi's file type, so it comes before the timestamps, in the order
 * Strapi's introspection lists them (code generators diff it).
 */
function addUploadFileExtras(sc: Composer, type: string, names: ReadonlyMap<string, string>): void {
  const file = sc.getOTC(type);
  file.addFields({ related: { type: `[${GENERIC_MORPH}]`, resolve: fileRelated(names) } });
  file.reorderFields(beforeTimestamps(file.getFieldNames(), ['related']));
  sc.getOTC(entityName(type)).extendField('attributes', { resolve: fileAttributes });
}

/** `names` with `added` moved in front of `createdAt` (or left at the end without it). */
function beforeTimestamps(names: string[], added: string[]): string[] {
  const rest = names.filter((name) => !added.includes(name));
  const at = rest.indexOf('createdAt');
  return at === -1 ? [...rest, ...added] : [...rest.slice(0, at), ...added, ...rest.slice(at)];
}

function wrapRoot(
  sc: Composer,
  root: 'Query' | 'Mutation',
  actions: Map<string, string | null>,
  configs: Record<string, ResolverConfig>,
  named: NamedPolicyLookup,
): void {
  const tc = root === 'Query' ? sc.Query : sc.Mutation;
  for (const name of tc.getFieldNames()) {
    const key = `${root}.${name}`;
    const resolve = tc.getFieldConfig(name).resolve as Resolve | undefined;
    if (!resolve) continue;
    // a field the app's typeDefs added has no entry: undefined, checked as Strapi checks it
    const action = actions.has(key) ? (actions.get(key) ?? null) : undefined;
    tc.extendField(name, { resolve: guarded(resolve, action, configs[key] ?? {}, named) });
  }
}

/**
 * Permission check (the field's action, or resolversConfig's `auth`), policies, then middlewares around the resolver.
 * `action`: the action a field the service built needs, null for one it checks itself (login,
 * register...); undefined for a root field the app's extension added, which Strapi's auth verifies
 * as a route with no scope: an authenticated user or a full-access token, not the public.
 */
function guarded(
  resolve: Resolve,
  action: string | null | undefined,
  config: ResolverConfig,
  named: NamedPolicyLookup,
): Resolve {
  return async (parent: unknown, args: Args, context: GraphQLContext, info: GraphQLResolveInfo) => {
    const { ability } = context.auth;
    if (config.auth !== false) {
      const scope = typeof config.auth === 'object' ? config.auth.scope : undefined;
      const allowed =
        scope !== undefined
          ? (Array.isArray(scope) ? scope : [scope]).some((s) => ability.can(s))
          : action === undefined
            ? verifyRouteAuth(context.auth, undefined) === 'allowed'
            : action === null || ability.can(action);
      if (!allowed) throw new ForbiddenError('Forbidden access');
    }
    // made only for a field that has policies: every root field of every request passes here
    let policyContext: GraphQLPolicyContext | undefined;
    for (const entry of config.policies ?? []) {
      let passed: boolean;
      try {
        const { handler, config: policyConfig } =
          typeof entry === 'function' ? { handler: entry, config: {} } : await named(entry);
        policyContext ??= graphqlPolicyContext(parent, args, context, info);
        passed = policyPassed(await (handler as Policy)(policyContext, policyConfig, { strapi: globalThis.strapi }));
      } catch (err) {
        // a policy's own error (the app's @strapi/utils PolicyError with its message and details) is the answer
        const error = fromStrapiUtilsError(err);
        if (isAppError(error)) throw error;
        passed = false;
      }
      if (!passed) throw new PolicyError();
    }
    const chain = (config.middlewares ?? []).reduceRight<Resolver>(
      (next, middleware) => (p, a, c, i) => middleware(next, p, a, c, i),
      resolve,
    );
    return chain(parent, args, context, info);
  };
}
