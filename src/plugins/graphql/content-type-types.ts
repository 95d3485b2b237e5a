/**
 * Type builders per attribute type: for every exposed content-type `T` the output type `T`,
 * `TEntity`, `TEntityResponse`, `TEntityResponseCollection`, `TRelationResponseCollection`,
 * `TFiltersInput`, `TInput`; for every component its type, filters input and input; enums;
 * dynamic-zone unions and their input scalars. Names come from naming.ts only.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { ObjectTypeComposerFieldConfigMapDefinition, SchemaComposer } from 'graphql-compose';
import {
  isManagedField,
  isMorph,
  isPrivate,
  type Attribute,
  type Component,
  type ContentType,
  type Registry,
  type Schema,
} from '../../content-types/index.js';
import { graphqlAttributes, isWriteOnly, SCALAR_GRAPHQL_TYPES } from './attribute-types.js';
import { ForbiddenError } from '../../errors/index.js';
import { fieldError, pageLimits, type GraphQLContext } from './context.js';
import { componentPage } from './component-lists.js';
import { populatedValue } from './selection.js';
import { morphField } from './morph-fields.js';
import { entityAttributes } from './entity-attributes.js';
import { relationFieldValue } from './flat-entry-relations.js';
import type { ExtensionService } from './extension.js';
import { enumMembers } from './enum-values.js';
import { attributeFilterInput, filterableAttributes } from './filters.js';
import {
  dynamicZoneInputName,
  dynamicZoneName,
  entityName,
  entityResponseCollectionName,
  entityResponseName,
  enumName,
  ERROR_TYPE,
  filtersInputName,
  inputName,
  PAGINATION_ARG,
  PUBLICATION_STATE,
  relationResponseCollectionName,
  RESPONSE_COLLECTION_META,
  typeName,
} from './naming.js';
import { dynamicZoneInputScalar } from './scalars.js';
import { isRecord } from './values.js';

type Composer = SchemaComposer<GraphQLContext>;
type FieldMap = ObjectTypeComposerFieldConfigMapDefinition<unknown, GraphQLContext>;

export interface TypeBuildContext {
  sc: Composer;
  registry: Registry;
  extension: ExtensionService;
  /** GraphQL type name of every exposed content-type and every component, by uid */
  names: Map<string, string>;
}

/** Inputs leave out what the service keeps itself (timestamps, a localized type's i18n fields); `publishedAt` is written. */
function isInputField(schema: Schema, name: string): boolean {
  return name === 'publishedAt' || !isManagedField(schema, name);
}

/** uid → type name for every exposed content-type and every component. */
export function typeNames(contentTypes: ContentType[], components: Component[]): Map<string, string> {
  return new Map([...contentTypes, ...components].map((schema) => [schema.uid, typeName(schema)]));
}

/** Args of a to-many field: `filters`, `pagination = {}`, `sort = []` and `publicationState = LIVE` on Draft & Publish targets. */
export function listArgs(
  filtersType: string,
  draftAndPublish: boolean,
): Record<string, { type: string; defaultValue?: unknown }> {
  return {
    filters: { type: filtersType },
    pagination: { type: PAGINATION_ARG, defaultValue: {} },
    sort: { type: '[String]', defaultValue: [] },
    ...(draftAndPublish ? { publicationState: { type: PUBLICATION_STATE, defaultValue: 'LIVE' } } : {}),
  };
}

function outputScalar(owner: string, name: string, attribute: Attribute): string | null {
  if (attribute.type === 'enumeration') return enumName(owner, name, attribute.enumName);
  return attribute.type in SCALAR_GRAPHQL_TYPES
    ? SCALAR_GRAPHQL_TYPES[attribute.type as keyof typeof SCALAR_GRAPHQL_TYPES]
    : null;
}

function addEnums(ctx: TypeBuildContext, owner: string, schema: Schema): void {
  for (const [name, attribute] of graphqlAttributes(schema)) {
    if (attribute.type !== 'enumeration' || !attribute.enum) continue;
    const enumType = enumName(owner, name, attribute.enumName);
    if (ctx.sc.has(enumType)) continue;
    const { members } = enumMembers(attribute.enum);
    ctx.sc.createEnumTC({
      name: enumType,
      values: Object.fromEntries(Object.entries(members).map(([member, value]) => [member, { value }])),
    });
  }
}

/** The output fields of a content-type's `attributes` or of a component. */
function outputFields(ctx: TypeBuildContext, schema: Schema, owner: string): FieldMap {
  const fields: FieldMap = {};
  for (const [name, attribute] of graphqlAttributes(schema)) {
    if (isPrivate(attribute) || isWriteOnly(attribute) || !ctx.extension.isFieldEnabled(schema.uid, name, 'output'))
      continue;
    const field = outputField(ctx, schema, owner, name, attribute);
    if (field) fields[name] = field;
  }
  return fields;
}

function outputField(
  ctx: TypeBuildContext,
  schema: Schema,
  owner: string,
  name: string,
  attribute: Attribute,
): FieldMap[string] | null {
  switch (attribute.type) {
    case 'relation':
    case 'media': {
      const relation = schema.relations[name];
      if (attribute.type === 'relation' && isMorph(attribute)) return morphField(ctx.registry, name, attribute);
      const target = relation ? ctx.names.get(relation.target) : undefined;
      const targetType = relation ? ctx.registry.contentType(relation.target) : undefined;
      if (!relation || !target || !targetType || !ctx.extension.isTypeEnabled(relation.target)) return null;
      const resolve = relation.media
        ? readMedia(ctx.registry, schema, name)
        : readRelation(ctx.registry, schema, name, relation.target);
      if (!relation.multiple) return { type: entityResponseName(target), resolve };
      return {
        type: relationResponseCollectionName(target),
        args: listArgs(filtersInputName(target), targetType.draftAndPublish),
        resolve,
      };
    }
    case 'component': {
      const component = ctx.names.get(attribute.component);
      if (!component) return null;
      if (!attribute.repeatable) return { type: component, resolve: readPopulated(name) };
      return {
        type: `[${component}]`,
        args: listArgs(filtersInputName(component), false),
        resolve: (
          parent: unknown,
          args: Record<string, unknown>,
          context: GraphQLContext,
          info: GraphQLResolveInfo,
        ) => {
          const refused = fieldError(context, info.fieldNodes[0]);
          if (refused) throw refused;
          return componentPage(populatedValue(parent, name, info.path.key), args, pageLimits(context));
        },
      };
    }
    case 'dynamiczone':
      return { type: `[${dynamicZoneName(owner, name)}]`, resolve: readPopulated(name) };
    default: {
      const scalar = outputScalar(owner, name, attribute);
      if (!scalar) return null;
      return { type: attribute.required ? `${scalar}!` : scalar };
    }
  }
}

/** A populated field's resolver: the answer read for its response key (aliases are read apart). */
function readPopulated(name: string) {
  return (parent: unknown, _args: unknown, _context: unknown, info: GraphQLResolveInfo) =>
    populatedValue(parent, name, info.path.key);
}

/**
 * A relation field: a caller who may not `find` its target gets a FORBIDDEN error on the field
 * (null there, the rest of the answer kept), as Strapi's association resolver answers it; the
 * populate left it out. Arguments refused while the selection was read fail here the same way.
 */
function readRelation(registry: Registry, owner: Schema, name: string, target: string) {
  return (parent: unknown, _args: unknown, context: GraphQLContext, info: GraphQLResolveInfo) => {
    if (!context.auth.ability.can(`${target}.find`)) throw new ForbiddenError('Forbidden access');
    const refused = fieldError(context, info.fieldNodes[0]);
    if (refused) throw refused;
    return relationFieldValue(registry, owner, name, parent, context, info);
  };
}

/** A media field: as populated, or read for an entry a custom resolver answered flat. */
function readMedia(registry: Registry, owner: Schema, name: string) {
  return (parent: unknown, _args: unknown, context: GraphQLContext, info: GraphQLResolveInfo) =>
    relationFieldValue(registry, owner, name, parent, context, info);
}

/** Every component's GraphQL type name → its uid (a dynamic zone's input may name any of them, as in Strapi). */
function componentTypeNames(ctx: TypeBuildContext): Map<string, string> {
  const byName = new Map<string, string>();
  for (const component of ctx.registry.listComponents()) {
    const typeName = ctx.names.get(component.uid);
    if (typeName) byName.set(typeName, component.uid);
  }
  return byName;
}

function addDynamicZones(ctx: TypeBuildContext, owner: string, schema: Schema): void {
  for (const [name, attribute] of graphqlAttributes(schema)) {
    if (attribute.type !== 'dynamiczone') continue;
    const members = attribute.components.flatMap((uid) => {
      const member = ctx.names.get(uid);
      return member ? [member] : [];
    });
    const byComponent = new Map(attribute.components.map((uid) => [uid, ctx.names.get(uid) ?? ERROR_TYPE]));
    ctx.sc.createUnionTC({
      name: dynamicZoneName(owner, name),
      types: [...members, ERROR_TYPE],
      resolveType: (value: unknown) =>
        isRecord(value) && typeof value.__component === 'string'
          ? (byComponent.get(value.__component) ?? ERROR_TYPE)
          : ERROR_TYPE,
    });
    ctx.sc.add(dynamicZoneInputScalar(dynamicZoneInputName(owner, name), componentTypeNames(ctx), members));
  }
}

/** `TFiltersInput`: id (entries only), filterable attributes, system fields, and/or/not. */
function addFiltersInput(ctx: TypeBuildContext, schema: Schema, owner: string): void {
  const name = filtersInputName(owner);
  const fields: Record<string, string> = {};
  if (schema.modelType === 'contentType') fields.id = 'IDFilterInput';
  for (const attribute of filterableAttributes(schema)) {
    if (!ctx.extension.isFieldEnabled(schema.uid, attribute, 'filters')) continue;
    const input = attributeFilterInput(schema, attribute, (uid) =>
      ctx.extension.isTypeEnabled(uid) ? (ctx.names.get(uid) ?? null) : null,
    );
    if (input) fields[attribute] = input;
  }
  Object.assign(fields, { and: `[${name}]`, or: `[${name}]`, not: name });
  ctx.sc.createInputTC({ name, fields });
}

/** `TInput`: every writable attribute (components with an optional `id`). */
function addInput(ctx: TypeBuildContext, schema: Schema, owner: string): void {
  const fields: Record<string, string> = schema.modelType === 'component' ? { id: 'ID' } : {};
  for (const [name, attribute] of graphqlAttributes(schema)) {
    if (!isInputField(schema, name) || !ctx.extension.isFieldEnabled(schema.uid, name, 'input')) continue;
    const type = inputType(ctx, schema, owner, name, attribute);
    if (type) fields[name] = type;
  }
  ctx.sc.createInputTC({ name: inputName(owner), fields });
}

function inputType(
  ctx: TypeBuildContext,
  schema: Schema,
  owner: string,
  name: string,
  attribute: Attribute,
): string | null {
  switch (attribute.type) {
    case 'relation':
    case 'media': {
      const relation = schema.relations[name];
      if (!relation || isMorph(attribute)) return null;
      return relation.multiple ? '[ID]' : 'ID';
    }
    case 'component': {
      const component = ctx.names.get(attribute.component);
      return component ? (attribute.repeatable ? `[${inputName(component)}]` : inputName(component)) : null;
    }
    case 'dynamiczone':
      return `[${dynamicZoneInputName(owner, name)}!]`;
    default:
      return outputScalar(owner, name, attribute);
  }
}

export function addComponentTypes(ctx: TypeBuildContext, component: Component): void {
  const owner = ctx.names.get(component.uid) ?? typeName(component);
  addEnums(ctx, owner, component);
  ctx.sc.createObjectTC({ name: owner, fields: { id: { type: 'ID!' }, ...outputFields(ctx, component, owner) } });
  addFiltersInput(ctx, component, owner);
  addInput(ctx, component, owner);
}

const ROOT_TYPE_NAMES = new Set(['Query', 'Mutation', 'Subscription']);

export function addContentTypeTypes(ctx: TypeBuildContext, ct: ContentType): void {
  const owner = ctx.names.get(ct.uid) ?? typeName(ct);
  addEnums(ctx, owner, ct);
  addDynamicZones(ctx, owner, ct);
  // graphql-compose keeps no type it is given under a root's name: a content-type named `query`,
  // `mutation` or `subscription` is the root type of its name, whose fields nexus merges with the
  // root's in Strapi (its `Subscription` becomes the subscription root)
  if (ROOT_TYPE_NAMES.has(owner)) ctx.sc.getOrCreateOTC(owner).addFields(outputFields(ctx, ct, owner));
  else ctx.sc.createObjectTC({ name: owner, fields: outputFields(ctx, ct, owner) });
  ctx.sc.createObjectTC({
    name: entityName(owner),
    fields: { id: 'ID', attributes: { type: owner, resolve: entityAttributes } },
  });
  ctx.sc.createObjectTC({ name: entityResponseName(owner), fields: { data: entityName(owner) } });
  if (ct.kind === 'collectionType') {
    ctx.sc.createObjectTC({
      name: entityResponseCollectionName(owner),
      fields: { data: `[${entityName(owner)}!]!`, meta: `${RESPONSE_COLLECTION_META}!` },
    });
  }
  // also for single types: a localized single type's `localizations` is a to-many relation to itself
  ctx.sc.createObjectTC({ name: relationResponseCollectionName(owner), fields: { data: `[${entityName(owner)}!]!` } });
  addFiltersInput(ctx, ct, owner);
  addInput(ctx, ct, owner);
}
