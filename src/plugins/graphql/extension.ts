/**
 * The extension service, `app.plugin('graphql').service('extension')` (Strapi v4's
 * `strapi.plugin('graphql').service('extension')`): turn shadow CRUD off per type, action or
 * field, and add typeDefs, resolvers and resolversConfig. Any change marks the schema stale; it is
 * rebuilt on the next request.
 */
import type { SchemaComposer } from 'graphql-compose';
import {
  isExecutableDefinitionNode,
  Kind,
  parse,
  print,
  valueFromASTUntyped,
  type DefinitionNode,
  type FieldDefinitionNode,
  type GraphQLResolveInfo,
} from 'graphql';
import * as nexus from 'nexus';
import type { GraphQLContext } from './context.js';
import type { GraphQLPolicyContext } from './policy-context.js';

export type Resolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

/** A policy: anything but `true` or nothing (or a rejected promise) denies with `Policy Failed`. */
export type Policy = (
  policyContext: GraphQLPolicyContext,
  config: Record<string, unknown>,
  helpers: { strapi: unknown },
) => unknown;

/** A policy by name (`global::is-owner`, `api::post.is-owner`, `plugin::<plugin>.<name>`), as Strapi resolves them. */
export type NamedPolicy = string | { name: string; config?: Record<string, unknown> };

/** Finds a named policy among the app's and its plugins'; rejects naming what is missing. */
export type NamedPolicyLookup = (
  entry: NamedPolicy,
) => Promise<{ handler: (...args: never[]) => unknown; config: Record<string, unknown> }>;

/** A middleware around a resolver. */
export type ResolverMiddleware = (
  resolve: Resolver,
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

export interface ResolverConfig {
  /**
   * false: no permission check; `{ scope }`: allowed when the caller may do any of these actions;
   * true or absent: the field's own action, or, for a root field the app added, a signed-in caller
   */
  auth?: boolean | { scope: string | string[] };
  policies?: Array<Policy | NamedPolicy>;
  middlewares?: ResolverMiddleware[];
}

export interface Extension {
  /** SDL, e.g. `type Query { hello: String }` or `extend type Article { wordCount: Int }` */
  typeDefs?: string;
  /** `{ Query: { hello: () => 'hi' }, Article: { wordCount: { resolve: (parent) => … } } }` */
  resolvers?: Record<string, Record<string, Resolver | { resolve: Resolver }>>;
  /** nexus type definitions, as Strapi's extensions write them (`nexus.extendType(...)`) */
  types?: unknown[];
  /** nexus plugins */
  plugins?: unknown[];
  /** keyed `Query.articles`, `Mutation.createNote`, … */
  resolversConfig?: Record<string, ResolverConfig>;
}

/** Receives graphql-compose's composer, and what Strapi's extensions receive: `nexus` and `strapi`. */
export type ExtensionFactory = (args: {
  schemaComposer: SchemaComposer<GraphQLContext>;
  nexus: typeof nexus;
  strapi: unknown;
}) => Extension | void;

/** What the registered extensions add to the schema besides the composer's changes. */
export interface AppliedExtensions {
  resolversConfig: Record<string, ResolverConfig>;
  /** nexus types and plugins, merged into the built schema */
  nexusTypes: unknown[];
  nexusPlugins: unknown[];
  /** resolvers of fields the composer does not have (a nexus type adds them): set once the types are merged */
  laterResolvers: Array<{ type: string; field: string; resolve: Resolver }>;
}

function resolveFunction(value: Resolver | { resolve: Resolver }): Resolver {
  return typeof value === 'function' ? value : value.resolve;
}

interface FieldSwitches {
  enabled: boolean;
  output: boolean;
  input: boolean;
  filters: boolean;
}

export interface FieldControl {
  disable(): FieldControl;
  disableOutput(): FieldControl;
  disableInput(): FieldControl;
  disableFilters(): FieldControl;
  isEnabled(): boolean;
  isDisabled(): boolean;
  hasInputEnabled(): boolean;
  hasOutputEnabled(): boolean;
  hasFiltersEnabled(): boolean;
  /** Strapi 4's own spelling, which plugins call */
  hasFiltersEnabeld(): boolean;
}

/** Strapi's getters read one switch each (`isActionEnabled` looks only at disabled actions). */
export interface ShadowCrudControl {
  disable(): ShadowCrudControl;
  disableQueries(): ShadowCrudControl;
  disableMutations(): ShadowCrudControl;
  /** `find`, `findOne`, `create`, `update`, `delete`, `createLocalization`; `*` for all */
  disableAction(action: string): ShadowCrudControl;
  disableActions(actions: string[]): ShadowCrudControl;
  field(name: string): FieldControl;
  isEnabled(): boolean;
  isDisabled(): boolean;
  areQueriesEnabled(): boolean;
  areQueriesDisabled(): boolean;
  areMutationsEnabled(): boolean;
  areMutationsDisabled(): boolean;
  isActionEnabled(action: string): boolean;
  isActionDisabled(action: string): boolean;
}

interface TypeSwitches {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  disabledActions: Set<string>;
  fields: Map<string, FieldSwitches>;
}

/** The schema cannot be built with the registered extensions (it can without them). */
export class ExtensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtensionError';
  }
}

export class ExtensionService {
  private readonly types = new Map<string, TypeSwitches>();
  private readonly extensions: Array<Extension | ExtensionFactory> = [];
  private version = 0;
  /** set by the service once the app's code is loaded: how a policy named in resolversConfig is found */
  namedPolicies: NamedPolicyLookup = (entry) =>
    Promise.reject(new Error(`policy "${typeof entry === 'string' ? entry : entry.name}" is not found`));

  /** bumped on every change; the plugin rebuilds the schema when it moved */
  get revision(): number {
    return this.version;
  }

  shadowCRUD(uid: string): ShadowCrudControl {
    const switches = this.switches(uid);
    const touch = () => {
      this.version++;
    };
    const control: ShadowCrudControl = {
      disable() {
        switches.enabled = false;
        touch();
        return control;
      },
      disableQueries() {
        switches.queries = false;
        touch();
        return control;
      },
      disableMutations() {
        switches.mutations = false;
        touch();
        return control;
      },
      disableAction(action) {
        switches.disabledActions.add(action);
        touch();
        return control;
      },
      disableActions(actions) {
        for (const a of actions) switches.disabledActions.add(a);
        touch();
        return control;
      },
      isEnabled: () => switches.enabled,
      isDisabled: () => !switches.enabled,
      areQueriesEnabled: () => switches.queries,
      areQueriesDisabled: () => !switches.queries,
      areMutationsEnabled: () => switches.mutations,
      areMutationsDisabled: () => !switches.mutations,
      isActionEnabled: (action) => !switches.disabledActions.has(action) && !switches.disabledActions.has('*'),
      isActionDisabled: (action) => switches.disabledActions.has(action) || switches.disabledActions.has('*'),
      field(name) {
        const field = switches.fields.get(name) ?? { enabled: true, output: true, input: true, filters: true };
        switches.fields.set(name, field);
        const fieldControl: FieldControl = {
          isEnabled: () => field.enabled,
          isDisabled: () => !field.enabled,
          hasInputEnabled: () => field.input,
          hasOutputEnabled: () => field.output,
          hasFiltersEnabled: () => field.filters,
          hasFiltersEnabeld: () => field.filters,
          disable() {
            field.enabled = false;
            field.output = false;
            field.input = false;
            field.filters = false;
            touch();
            return fieldControl;
          },
          disableOutput() {
            field.output = false;
            touch();
            return fieldControl;
          },
          disableInput() {
            field.input = false;
            touch();
            return fieldControl;
          },
          disableFilters() {
            field.filters = false;
            touch();
            return fieldControl;
          },
        };
        return fieldControl;
      },
    };
    return control;
  }

  /** a bound function, as Strapi's: apps pass it around (`extensions.forEach(extensionService.use)`) */
  readonly use = (extension: Extension | ExtensionFactory): ExtensionService => {
    this.extensions.push(extension);
    this.version++;
    return this;
  };

  // --- read by the schema builder ---

  isTypeEnabled(uid: string): boolean {
    return this.types.get(uid)?.enabled !== false;
  }

  isActionEnabled(uid: string, action: string): boolean {
    const t = this.types.get(uid);
    if (!t) return true;
    if (!t.enabled || t.disabledActions.has(action) || t.disabledActions.has('*')) return false;
    const isQuery = action === 'find' || action === 'findOne';
    return isQuery ? t.queries : t.mutations;
  }

  isFieldEnabled(uid: string, field: string, use: 'output' | 'input' | 'filters'): boolean {
    return this.types.get(uid)?.fields.get(field)?.[use] !== false;
  }

  /** Applies every registered extension to the composer; returns their resolversConfig and nexus types. */
  apply(schemaComposer: SchemaComposer<GraphQLContext>): AppliedExtensions {
    const config: Record<string, ResolverConfig> = {};
    const applied: AppliedExtensions = {
      resolversConfig: config,
      nexusTypes: [],
      nexusPlugins: [],
      laterResolvers: [],
    };
    const hasField = (type: string, field: string) => {
      if (type === 'Query') return schemaComposer.Query.hasField(field);
      if (type === 'Mutation') return schemaComposer.Mutation.hasField(field);
      return (
        schemaComposer.has(type) && schemaComposer.isObjectType(type) && schemaComposer.getOTC(type).hasField(field)
      );
    };
    for (const entry of this.extensions) {
      const extension =
        typeof entry === 'function' ? entry({ schemaComposer, nexus, strapi: globalThis.strapi }) : entry;
      if (!extension) continue;
      applied.nexusTypes.push(...(extension.types ?? []));
      applied.nexusPlugins.push(...(extension.plugins ?? []));
      if (extension.typeDefs) addTypeDefs(schemaComposer, extension.typeDefs);
      if (extension.resolvers) {
        const now: Record<string, Record<string, Resolver>> = {};
        for (const [type, fields] of Object.entries(extension.resolvers))
          for (const [field, value] of Object.entries(fields)) {
            // Strapi sets the resolvers on the schema its nexus types are merged into
            if (hasField(type, field)) (now[type] ??= {})[field] = resolveFunction(value);
            else applied.laterResolvers.push({ type, field, resolve: resolveFunction(value) });
          }
        schemaComposer.addResolveMethods(now as Parameters<SchemaComposer<GraphQLContext>['addResolveMethods']>[0]);
      }
      Object.assign(config, extension.resolversConfig ?? {});
    }
    return applied;
  }

  private switches(uid: string): TypeSwitches {
    let t = this.types.get(uid);
    if (!t) {
      t = { enabled: true, queries: true, mutations: true, disabledActions: new Set(), fields: new Map() };
      this.types.set(uid, t);
    }
    return t;
  }
}

/**
 * Adds SDL to the composer. `type X`/`extend type X` of an object type that already exists adds
 * its fields (so `extend type Article { … }` and `type Query { … }` extend, never replace); other
 * definitions are added as new types. An operation or a fragment written among them (a sample
 * `mutation { … }` left in the SDL) is no type: it is left out, as Strapi's schema merge
 * (graphql-tools' mergeTypeDefs) leaves it.
 */
function addTypeDefs(sc: SchemaComposer<GraphQLContext>, typeDefs: string): void {
  const rest: DefinitionNode[] = [];
  for (const definition of parse(typeDefs).definitions) {
    if (isExecutableDefinitionNode(definition)) continue;
    const isObject = definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION;
    const name = isObject ? definition.name.value : '';
    if (isObject && (sc.has(name) || name === 'Query' || name === 'Mutation')) {
      const tc = name === 'Query' ? sc.Query : name === 'Mutation' ? sc.Mutation : sc.getOTC(name);
      for (const field of definition.fields ?? []) tc.addFields({ [field.name.value]: fieldConfig(field) });
    } else {
      rest.push(definition);
    }
  }
  if (rest.length > 0) sc.addTypeDefs(rest.map((d) => print(d)).join('\n'));
}

function fieldConfig(field: FieldDefinitionNode): {
  type: string;
  description?: string;
  args: Record<string, { type: string; defaultValue?: unknown }>;
} {
  return {
    type: print(field.type),
    ...(field.description ? { description: field.description.value } : {}),
    args: Object.fromEntries(
      (field.arguments ?? []).map((arg) => [
        arg.name.value,
        {
          type: print(arg.type),
          ...(arg.defaultValue ? { defaultValue: valueFromASTUntyped(arg.defaultValue) } : {}),
        },
      ]),
    ),
  };
}
