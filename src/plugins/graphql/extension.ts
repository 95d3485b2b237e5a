/**
 * The extension service, `app.plugin('graphql').service('extension')` (Strapi v4's
 * `strapi.plugin('graphql').service('extension')`): turn shadow CRUD off per type, action or
 * field, and add typeDefs, resolvers and resolversConfig. Any change marks the schema stale; it is
 * rebuilt on the next request.
 */
import type { SchemaComposer } from 'graphql-compose';
import {
  Kind,
  parse,
  print,
  valueFromASTUntyped,
  type DefinitionNode,
  type FieldDefinitionNode,
  type GraphQLResolveInfo,
} from 'graphql';
import type { GraphQLContext } from './context.js';

export type Resolver = (
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

/** A policy: false (or a rejected promise) denies with `Policy Failed`. */
export type Policy = (context: {
  parent: unknown;
  args: Record<string, unknown>;
  context: GraphQLContext;
  info: GraphQLResolveInfo;
}) => boolean | Promise<boolean>;

/** A middleware around a resolver. */
export type ResolverMiddleware = (
  resolve: Resolver,
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

export interface ResolverConfig {
  /** false: no permission check; `{ scope }`: allowed when the caller may do any of these actions */
  auth?: false | { scope: string | string[] };
  policies?: Policy[];
  middlewares?: ResolverMiddleware[];
}

export interface Extension {
  /** SDL, e.g. `type Query { hello: String }` or `extend type Article { wordCount: Int }` */
  typeDefs?: string;
  /** `{ Query: { hello: () => 'hi' }, Article: { wordCount: (parent) => … } }` */
  resolvers?: Record<string, Record<string, Resolver>>;
  /** keyed `Query.articles`, `Mutation.createNote`, … */
  resolversConfig?: Record<string, ResolverConfig>;
}

export type ExtensionFactory = (args: { schemaComposer: SchemaComposer<GraphQLContext> }) => Extension | void;

interface FieldSwitches {
  output: boolean;
  input: boolean;
  filters: boolean;
}

export interface FieldControl {
  disable(): FieldControl;
  disableOutput(): FieldControl;
  disableInput(): FieldControl;
  disableFilters(): FieldControl;
}

export interface ShadowCrudControl {
  disable(): ShadowCrudControl;
  disableQueries(): ShadowCrudControl;
  disableMutations(): ShadowCrudControl;
  /** `find`, `findOne`, `create`, `update`, `delete`, `createLocalization` */
  disableAction(action: string): ShadowCrudControl;
  disableActions(actions: string[]): ShadowCrudControl;
  field(name: string): FieldControl;
}

interface TypeSwitches {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  disabledActions: Set<string>;
  fields: Map<string, FieldSwitches>;
}

export class ExtensionService {
  private readonly types = new Map<string, TypeSwitches>();
  private readonly extensions: Array<Extension | ExtensionFactory> = [];
  private version = 0;

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
      field(name) {
        const field = switches.fields.get(name) ?? { output: true, input: true, filters: true };
        switches.fields.set(name, field);
        const fieldControl: FieldControl = {
          disable() {
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

  use(extension: Extension | ExtensionFactory): this {
    this.extensions.push(extension);
    this.version++;
    return this;
  }

  // --- read by the schema builder ---

  isTypeEnabled(uid: string): boolean {
    return this.types.get(uid)?.enabled !== false;
  }

  isActionEnabled(uid: string, action: string): boolean {
    const t = this.types.get(uid);
    if (!t) return true;
    if (!t.enabled || t.disabledActions.has(action)) return false;
    const isQuery = action === 'find' || action === 'findOne';
    return isQuery ? t.queries : t.mutations;
  }

  isFieldEnabled(uid: string, field: string, use: keyof FieldSwitches): boolean {
    return this.types.get(uid)?.fields.get(field)?.[use] !== false;
  }

  /** Applies every registered extension to the composer; returns their merged resolversConfig. */
  apply(schemaComposer: SchemaComposer<GraphQLContext>): Record<string, ResolverConfig> {
    const config: Record<string, ResolverConfig> = {};
    for (const entry of this.extensions) {
      const extension = typeof entry === 'function' ? entry({ schemaComposer }) : entry;
      if (!extension) continue;
      if (extension.typeDefs) addTypeDefs(schemaComposer, extension.typeDefs);
      if (extension.resolvers)
        schemaComposer.addResolveMethods(
          extension.resolvers as Parameters<SchemaComposer<GraphQLContext>['addResolveMethods']>[0],
        );
      Object.assign(config, extension.resolversConfig ?? {});
    }
    return config;
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
 * definitions are added as new types.
 */
function addTypeDefs(sc: SchemaComposer<GraphQLContext>, typeDefs: string): void {
  const rest: DefinitionNode[] = [];
  for (const definition of parse(typeDefs).definitions) {
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
