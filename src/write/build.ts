// Turns the `data` of a write into the fields to store, validating every attribute first
// (Strapi v4 entity validator semantics) and collecting what must be checked against the
// database (relation targets, unique values) and done after the write (inverse relation sides).
import type {
  Attribute,
  Component,
  ComponentAttribute,
  ContentType,
  DynamicZoneAttribute,
  MediaAttribute,
  RelationInfo,
  Registry,
  ScalarAttribute,
} from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';
import { isPlainObject, type WriteData } from './payload.js';
import { applyRelationInput, parseRelationInput, referencedIds, type RelationInput } from './relation-input.js';
import { castScalar } from './scalar.js';

export type StoredObject = Record<string, unknown>;
export type Mode = 'create' | 'update';

/** A component object created by this write; its `id` is assigned once validation has passed. */
export interface NewComponent {
  uid: string;
  target: StoredObject;
}

/** A `mappedBy` side written by the client: the owning documents are updated after the write. */
export interface InverseWrite {
  attribute: string;
  relation: RelationInfo & { inverse: { field: string; multiple: boolean } };
  input: RelationInput;
}

/** A plain password in a built object, hashed (bcrypt) once the write is known to be valid. */
export interface PendingPassword {
  target: StoredObject;
  attribute: string;
}

export interface UniqueCheck {
  attribute: string;
  value: unknown;
  perLocale: boolean;
}

/** Files a media attribute with `allowedTypes` is set to: their types are checked against the list. */
export interface MediaTypeCheck {
  attribute: MediaAttribute;
  path: string[];
  ids: number[];
}

export interface WritePlan {
  set: StoredObject;
  unset: string[];
  issues: ValidationIssue[];
  newComponents: NewComponent[];
  /** target uid → ids that must exist */
  targets: Map<string, Set<number>>;
  unique: UniqueCheck[];
  inverse: InverseWrite[];
  passwords: PendingPassword[];
  media: MediaTypeCheck[];
}

const SYSTEM = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations']);

interface Walk {
  registry: Registry;
  isDraft: boolean;
  plan: WritePlan;
  /** whether the caller may link entries of a type (Strapi v4 drops relation input to types it cannot `find`) */
  canRelate: (uid: string) => boolean;
}

function numberList(value: unknown): number[] {
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number');
  return typeof value === 'number' ? [value] : [];
}

function addTargets(walk: Walk, uid: string, ids: number[]): void {
  if (ids.length === 0) return;
  const set = walk.plan.targets.get(uid) ?? new Set<number>();
  ids.forEach((id) => set.add(id));
  walk.plan.targets.set(uid, set);
}

function scalarDefault(attribute: Attribute): unknown {
  return 'default' in attribute ? attribute.default : undefined;
}

interface Fields {
  set: StoredObject;
  unset: string[];
}

/**
 * Validates and casts `data` against `schema` (`existing`: the stored object on update), writing
 * the built values into `target` so that later steps can fill in ids and hashes in place.
 */
/** Strapi v4 does not enforce `required` on media (v5 does); every other attribute it does. */
function enforcedRequired(attribute: Attribute): boolean {
  return attribute.required === true && attribute.type !== 'media';
}

function buildFields(
  walk: Walk,
  schema: ContentType | Component,
  data: WriteData,
  existing: StoredObject | null,
  mode: Mode,
  path: string[],
  topLevel: boolean,
  target: StoredObject = {},
): Fields {
  const fields: Fields = { set: target, unset: [] };
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (SYSTEM.has(name) && schema.modelType === 'contentType') continue;
    const at = [...path, name];
    const present = Object.prototype.hasOwnProperty.call(data, name) && data[name] !== undefined;
    let value = present ? data[name] : undefined;
    if (!present) {
      if (mode === 'update') continue;
      const fallback = scalarDefault(attribute);
      if (fallback === undefined) {
        if (enforcedRequired(attribute) && !walk.isDraft) walk.plan.issues.push(issue(at, messages.defined(at)));
        continue;
      }
      value = fallback;
    }
    if (value === null && enforcedRequired(attribute) && !walk.isDraft) {
      walk.plan.issues.push(issue(at, mode === 'create' ? messages.defined(at) : messages.notNull(at)));
      continue;
    }
    switch (attribute.type) {
      case 'relation':
      case 'media':
        // Strapi v4's removeRestrictedRelations: relation input to a type the caller cannot read is dropped
        if (attribute.type === 'relation' && !walk.canRelate(attribute.target)) break;
        buildRelation(walk, schema.relations[name], name, value, existing, at, topLevel, fields);
        if (attribute.type === 'media') collectMediaCheck(walk, attribute, value, at);
        break;
      case 'component':
        buildComponentAttribute(walk, attribute, name, value, existing, at, fields);
        break;
      case 'dynamiczone':
        buildDynamicZone(walk, attribute, name, value, existing, at, fields);
        break;
      default:
        buildScalar(walk, schema, attribute, name, value, at, topLevel, fields);
    }
  }
  return fields;
}

function buildComponentAttribute(
  walk: Walk,
  attribute: ComponentAttribute,
  name: string,
  value: unknown,
  existing: StoredObject | null,
  at: string[],
  fields: Fields,
): void {
  const current = existing?.[name];
  if (value === null) {
    fields.set[name] = attribute.repeatable ? [] : null;
    return;
  }
  if (!attribute.repeatable) {
    fields.set[name] = buildComponent(walk, attribute.component, value, isPlainObject(current) ? [current] : [], at);
    return;
  }
  if (!Array.isArray(value)) {
    walk.plan.issues.push(issue(at, messages.array(at, value)));
    return;
  }
  checkCount(walk, attribute, value.length, at);
  const existingItems = Array.isArray(current) ? current.filter(isPlainObject) : [];
  fields.set[name] = value.map((item, i) =>
    buildComponent(walk, attribute.component, item, existingItems, [...at, String(i)]),
  );
}

function buildDynamicZone(
  walk: Walk,
  attribute: DynamicZoneAttribute,
  name: string,
  value: unknown,
  existing: StoredObject | null,
  at: string[],
  fields: Fields,
): void {
  if (value === null) {
    fields.set[name] = [];
    return;
  }
  if (!Array.isArray(value)) {
    walk.plan.issues.push(issue(at, messages.array(at, value)));
    return;
  }
  checkCount(walk, attribute, value.length, at);
  const current = existing?.[name];
  const existingItems = Array.isArray(current) ? current.filter(isPlainObject) : [];
  fields.set[name] = value.map((item, i) => {
    const itemPath = [...at, String(i)];
    const componentPath = [...itemPath, '__component'];
    const uid = isPlainObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string' || uid === '') {
      walk.plan.issues.push(issue(componentPath, messages.defined(componentPath)));
      return null;
    }
    if (!attribute.components.includes(uid)) {
      walk.plan.issues.push(issue(componentPath, messages.oneOf(componentPath, attribute.components)));
      return null;
    }
    const built = buildComponent(
      walk,
      uid,
      item,
      existingItems.filter((e) => e.__component === uid),
      itemPath,
    );
    // mutated in place: a new component's id is assigned to this very object later
    if (built) built.__component = uid;
    return built;
  });
}

function buildScalar(
  walk: Walk,
  schema: ContentType | Component,
  attribute: ScalarAttribute,
  name: string,
  value: unknown,
  at: string[],
  topLevel: boolean,
  fields: Fields,
): void {
  if (value === null) {
    // unique attributes are left unset rather than null (sparse unique indexes)
    if (attribute.unique) fields.unset.push(name);
    else fields.set[name] = null;
    return;
  }
  const cast = castScalar(attribute, at, value, walk.isDraft);
  if (!cast.ok) {
    walk.plan.issues.push(...cast.issues);
    return;
  }
  fields.set[name] = cast.value;
  if (attribute.type === 'password') walk.plan.passwords.push({ target: fields.set, attribute: name });
  if (topLevel && (attribute.unique || attribute.type === 'uid') && cast.value !== '') {
    const perLocale =
      schema.modelType === 'contentType' && schema.localized && attribute.pluginOptions?.i18n?.localized !== false;
    walk.plan.unique.push({ attribute: name, value: cast.value, perLocale });
  }
}

function checkCount(walk: Walk, attribute: { min?: number; max?: number }, count: number, at: string[]): void {
  if (typeof attribute.min === 'number' && count < attribute.min && !walk.isDraft)
    walk.plan.issues.push(issue(at, messages.minItems(at, attribute.min)));
  if (typeof attribute.max === 'number' && count > attribute.max)
    walk.plan.issues.push(issue(at, messages.maxItems(at, attribute.max)));
}

function buildRelation(
  walk: Walk,
  relation: RelationInfo | undefined,
  name: string,
  value: unknown,
  existing: StoredObject | null,
  at: string[],
  topLevel: boolean,
  fields: Fields,
): void {
  if (!relation || relation.localizations) return;
  const parsed = parseRelationInput(value, relation.multiple, at);
  if (!parsed.ok) {
    walk.plan.issues.push(...parsed.issues);
    return;
  }
  addTargets(walk, relation.target, referencedIds(parsed.input));
  if (relation.stored) {
    const next = applyRelationInput(numberList(existing?.[name]), parsed.input);
    if (!next) {
      walk.plan.issues.push(issue(at, messages.position(at)));
      return;
    }
    fields.set[name] = relation.multiple ? next : (next.at(-1) ?? null);
  } else if (relation.inverse && topLevel) {
    walk.plan.inverse.push({
      attribute: name,
      relation: { ...relation, inverse: relation.inverse },
      input: parsed.input,
    });
  }
}

function collectMediaCheck(walk: Walk, attribute: MediaAttribute, value: unknown, at: string[]): void {
  if (!attribute.allowedTypes || attribute.allowedTypes.length === 0) return;
  const parsed = parseRelationInput(value, attribute.multiple === true, at);
  if (!parsed.ok) return;
  const ids = referencedIds(parsed.input);
  if (ids.length > 0) walk.plan.media.push({ attribute, path: at, ids });
}

function parseComponentId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** A component object: kept (same id, fields updated) when it names an existing id, new otherwise. */
function buildComponent(
  walk: Walk,
  uid: string,
  value: unknown,
  existingItems: StoredObject[],
  at: string[],
): StoredObject | null {
  const component = walk.registry.component(uid);
  if (!component) return null;
  if (!isPlainObject(value)) {
    walk.plan.issues.push(issue(at, messages.object(at, value)));
    return null;
  }
  if (value.id !== undefined && value.id !== null) {
    const id = parseComponentId(value.id);
    const current = existingItems.find((item) => item.id === id);
    if (id === undefined || !current) {
      walk.plan.issues.push(issue(at, `Some of the provided components in ${at[0]} are not related to the entity`));
      return null;
    }
    const merged: StoredObject = { ...current, id };
    delete merged.__component;
    const fields = buildFields(walk, component, value, current, 'update', at, false, merged);
    fields.unset.forEach((key) => delete merged[key]);
    return merged;
  }
  const created: StoredObject = { id: 0 };
  buildFields(walk, component, value, null, 'create', at, false, created);
  walk.plan.newComponents.push({ uid, target: created });
  return created;
}

/** Everything a create or update of `contentType` with `data` will write, and what is wrong with it. */
export interface BuildOptions {
  mode: Mode;
  existing: StoredObject | null;
  isDraft: boolean;
  canRelate?: (uid: string) => boolean;
}

export function buildWrite(
  registry: Registry,
  contentType: ContentType,
  data: WriteData,
  options: BuildOptions,
): WritePlan {
  const plan: WritePlan = {
    set: {},
    unset: [],
    issues: [],
    newComponents: [],
    targets: new Map(),
    unique: [],
    inverse: [],
    passwords: [],
    media: [],
  };
  const walk: Walk = { registry, isDraft: options.isDraft, plan, canRelate: options.canRelate ?? (() => true) };
  const fields = buildFields(walk, contentType, data, options.existing, options.mode, [], true);
  plan.set = fields.set;
  plan.unset = fields.unset;
  return plan;
}
