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
  MorphAttribute,
  RelationInfo,
  Registry,
  RelationAttribute,
  ScalarAttribute,
} from '../content-types/index.js';
import { isManagedField, isMorph, isMorphTo } from '../content-types/index.js';
import { AppError, ApplicationError, HttpError, ValidationError, type ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';
import { parseMorphInput } from './morph-input.js';
import { isPlainObject, type WriteData } from './payload.js';
import {
  applyRelationInput,
  parseRelationInput,
  unreadableRelation,
  referencedIds,
  strictOnCreate,
  type RelationInput,
} from './relation-input.js';
import { orderListIssues } from './list-issue-order.js';
import { castScalar, requiredNullMessage } from './scalar.js';

export type StoredObject = Record<string, unknown>;
export type Mode = 'create' | 'update';

/**
 * A component object created by this write; its `id` is assigned once validation has passed, in
 * the order Strapi's inserts would reach its database (component-ids.ts): `attribute` (top-level
 * attributes are written one after the other), then `time`, then `order` (the order of the calls).
 */
export interface NewComponent {
  uid: string;
  target: StoredObject;
  attribute: number;
  time: number;
  order: number;
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
}

/** An owning relation of the entry itself whose stored ids this write changes (top level only). */
export interface OwningLink {
  attribute: string;
  relation: RelationInfo;
  before: number[];
  after: number[];
}

export interface ComponentError {
  at: [attribute: number, time: number, order: number];
  error: AppError;
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
  /**
   * Errors Strapi meets while writing components, after validation: a component id the entry does
   * not have, and values its database layer cannot convert (stored-formats.ts). `at` orders them as
   * Strapi's writes happen (component-ids.ts): attribute, round trip, call order.
   */
  componentErrors: ComponentError[];
  /** the database layer's conversion errors of the entry's own attributes (written after its components) */
  storageErrors: string[];
  /**
   * Strapi's relation check cannot read the body (a dynamic-zone item without a known component):
   * its message, reported after every field's issues.
   */
  storeError: string | null;
  /** Strapi's InvalidRelationError messages (connect positions): a 400 once everything else is valid */
  relationErrors: string[];
  links: OwningLink[];
  /** the plan was computed from stored values (relation lists, components kept by id): written by compare-and-set */
  readsStored: boolean;
  /**
   * Owning to-many relations changed by atomic operators instead (connect without positions, or
   * disconnect): ids appended, provided none of them is stored yet (`absent`), and ids removed.
   */
  push: Record<string, number[]>;
  pull: Record<string, number[]>;
  newComponents: NewComponent[];
  /** target uid → ids that must exist */
  targets: Map<string, Set<number>>;
  /** target uid → how many id values no entry can have (`"abc"`) were given: Strapi looks them up, missing */
  unmatched: Map<string, number>;
  unique: UniqueCheck[];
  inverse: InverseWrite[];
  passwords: PendingPassword[];
  media: MediaTypeCheck[];
}

interface Walk {
  registry: Registry;
  /** the entry's write: Strapi validates every nested component with the entry's create/update rules */
  entityMode: Mode;
  isDraft: boolean;
  /** the entity service's validation (BuildOptions.validate) */
  validate: boolean;
  /** the database layer's conversion errors of the object being built (the entry, or the innermost component) */
  formatErrors: string[];
  plan: WritePlan;
  /** owning to-many patches that need no read may be written with atomic operators */
  atomicLinks: boolean;
  /** whether the caller may link entries of a type (Strapi v4 drops relation input to types it cannot `find`) */
  canRelate: (uid: string) => boolean;
  clock: Clock;
}

/**
 * Where Strapi's component writes would be, counted in database round trips: its entity service
 * writes the items of a list concurrently, a component after its nested ones, and on update loads
 * (and deletes the dropped) components of an attribute before writing its new ones. `time` is the
 * cursor of the component being built; `calls` numbers the creates in the order they are called.
 */
interface Clock {
  attribute: number;
  time: number;
  calls: number;
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

function isComponentList(attribute: Attribute): boolean {
  return attribute.type === 'dynamiczone' || (attribute.type === 'component' && attribute.repeatable === true);
}

/**
 * The value written when a create gives none. A relation's or a media's `default` (`"default": false`
 * as the admin's builder may leave it) is ignored: Strapi's database layer applies defaults to scalar
 * attributes only, and it connects nothing for such a value.
 */
function scalarDefault(attribute: Attribute): unknown {
  if (attribute.type === 'relation' || attribute.type === 'media') return undefined;
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
  for (const [index, [name, attribute]] of Object.entries(schema.attributes).entries()) {
    if (isManagedField(schema, name)) continue;
    if (topLevel) walk.clock = { ...walk.clock, attribute: index, time: 0 };
    const at = [...path, name];
    const present = Object.prototype.hasOwnProperty.call(data, name) && data[name] !== undefined;
    let value = present ? data[name] : undefined;
    // Strapi's validator makes a list of components always "required": a missing one is a 400 even in
    // a draft, null is never a list; its `min` applies when required or not empty, drafts included
    const list = isComponentList(attribute);
    if (!present) {
      if (mode === 'update') continue;
      const fallback = scalarDefault(attribute);
      if (fallback === undefined) {
        // an update requires only "not null", also of the components it creates
        if (walk.validate && enforcedRequired(attribute) && walk.entityMode === 'create' && (list || !walk.isDraft))
          walk.plan.issues.push(issue(at, messages.defined(at)));
        continue;
      }
      value = fallback;
    }
    if (value === null && list) {
      // the query engine empties the list
      if (walk.validate) walk.plan.issues.push(issue(at, messages.array(at, value)));
      else fields.set[name] = [];
      continue;
    }
    if (value === null && walk.validate && enforcedRequired(attribute) && !walk.isDraft) {
      walk.plan.issues.push(issue(at, requiredNullMessage(attribute.type, at, walk.entityMode === 'create')));
      continue;
    }
    if (isMorph(attribute)) {
      buildMorph(walk, attribute, name, value, at, fields);
      continue;
    }
    switch (attribute.type) {
      case 'relation':
      case 'media':
        // Strapi v4's removeRestrictedRelations: relation input to a type the caller cannot read is dropped
        if (attribute.type === 'relation' && !walk.canRelate(attribute.target)) break;
        if (
          topLevel &&
          attribute.type === 'relation' &&
          atomicPatch(walk, attribute, schema.relations[name], name, value)
        )
          break;
        buildRelation(walk, schema.relations[name], name, value, existing, mode, at, topLevel, fields);
        if (attribute.type === 'media' && walk.validate) collectMediaCheck(walk, attribute, value, at);
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
  const existingItems = Array.isArray(current)
    ? current.filter(isPlainObject)
    : isPlainObject(current)
      ? [current]
      : [];
  if (value === null) {
    fields.set[name] = null;
    return;
  }
  if (!attribute.repeatable) {
    const item = ownedItem(existing, value);
    checkRelated(walk, [item], existingItems, at, false);
    fields.set[name] = inList(walk, existing, existingItems, attribute.component, [item], () =>
      buildComponent(walk, attribute.component, item, existingItems, at),
    )[0];
    return;
  }
  if (!Array.isArray(value)) {
    walk.plan.issues.push(issue(at, messages.array(at, value)));
    return;
  }
  const items = value.map((item) => ownedItem(existing, castItem(item)));
  checkRelated(walk, items, existingItems, at, false);
  const tracked = trackItemIssues(walk);
  fields.set[name] = inList(walk, existing, existingItems, attribute.component, items, (item, i) => {
    tracked.starts(i);
    const itemPath = [...at, String(i)];
    if (isPlainObject(item)) return buildComponent(walk, attribute.component, item, existingItems, itemPath);
    walk.plan.issues.push(issue(itemPath, messages.objectItem(itemPath, value[i])));
    return null;
  });
  tracked.reorder(at, items, () => walk.registry.component(attribute.component), false);
  // the list's own tests report after its items
  checkCount(walk, attribute, value.length, at);
}

/**
 * Collects the issues of each item of a list as it is built, then puts them in the order Strapi
 * reports them (list-issue-order.ts).
 */
function trackItemIssues(walk: Walk): {
  starts: (index: number) => void;
  reorder: (
    at: string[],
    items: unknown[],
    componentOf: (item: unknown) => Component | undefined,
    inZone: boolean,
  ) => void;
} {
  const from = walk.plan.issues.length;
  const marks: number[] = [];
  return {
    starts: (index) => {
      marks[index] = walk.plan.issues.length;
    },
    reorder: (at, items, componentOf, inZone) => {
      const all = walk.plan.issues.splice(from);
      const ends = [...marks.slice(1), from + all.length];
      const ordered = orderListIssues(
        items.map((item, i) => ({
          path: [...at, String(i)],
          value: item,
          component: componentOf(item),
          inZone,
          issues: all.slice((marks[i] ?? from) - from, (ends[i] ?? from) - from),
        })),
        { isDraft: walk.isDraft, component: (uid) => walk.registry.component(uid) },
      );
      walk.plan.issues.push(...ordered);
    },
  };
}

/**
 * yup's cast of one item of a component list: an object, or a string holding a JSON object;
 * anything else becomes null (a type error that quotes the value given).
 */
function castItem(item: unknown): unknown {
  if (typeof item !== 'string') return item;
  try {
    const parsed: unknown = JSON.parse(item);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Strapi checks first, before writing an attribute's components, that every component id it is
 * given belongs to the entry (in a dynamic zone: with the same component uid).
 */
/**
 * A component item as Strapi reads it: the components of an entry (or component) being created are
 * all created, whatever `id` they name; only an update looks an `id` up among the stored ones.
 */
function ownedItem(owner: StoredObject | null, item: unknown): unknown {
  if (owner !== null || !isPlainObject(item) || !('id' in item)) return item;
  const { id: _ignored, ...rest } = item;
  return rest;
}

function checkRelated(
  walk: Walk,
  items: unknown[],
  existingItems: StoredObject[],
  at: string[],
  inZone: boolean,
): void {
  const foreign = items.some((item) => {
    if (!isPlainObject(item) || item.id === undefined || item.id === null) return false;
    const id = parseComponentId(item.id);
    return !existingItems.some((stored) => stored.id === id && (!inZone || stored.__component === item.__component));
  });
  if (foreign)
    walk.plan.componentErrors.push({
      at: [walk.clock.attribute, walk.clock.time, -1],
      error: unrelatedComponent(at, inZone),
    });
}

/**
 * Builds the items of one component attribute on Strapi's clock: on update the attribute's stored
 * components are loaded and the dropped ones deleted first; the items then start together, and
 * the attribute is done one round trip after the last of them.
 */
function inList<T>(
  walk: Walk,
  existing: StoredObject | null,
  existingItems: StoredObject[],
  uid: string | undefined,
  items: unknown[],
  build: (item: unknown, index: number) => T,
): T[] {
  const kept = new Set(items.map((item) => (isPlainObject(item) ? parseComponentId(item.id) : undefined)));
  const start =
    walk.clock.time +
    (existing === null
      ? 0
      : 1 +
        existingItems
          .filter((item) => !kept.has(parseComponentId(item.id)))
          .reduce((n, item) => n + deletes(walk, uid, item), 0));
  let end = start;
  const built = items.map((item, i) => {
    walk.clock.time = start;
    const result = build(item, i);
    end = Math.max(end, walk.clock.time);
    return result;
  });
  walk.clock.time = items.length > 0 ? end + 1 : start;
  return built;
}

/** Round trips Strapi spends deleting a stored component: its nested ones (each loaded first), then itself. */
function deletes(walk: Walk, uid: string | undefined, stored: StoredObject): number {
  const componentUid = uid ?? (typeof stored.__component === 'string' ? stored.__component : undefined);
  const component = componentUid ? walk.registry.component(componentUid) : undefined;
  let trips = 1;
  for (const [name, attribute] of Object.entries(component?.attributes ?? {})) {
    if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
    const value = stored[name];
    const nested = Array.isArray(value) ? value.filter(isPlainObject) : isPlainObject(value) ? [value] : [];
    const nestedUid = attribute.type === 'component' ? attribute.component : undefined;
    trips += 1 + nested.reduce((n, item) => n + deletes(walk, nestedUid, item), 0);
  }
  return trips;
}

/**
 * The uids of the app's components in the order Strapi 4.26 usually registers them: its loader globs
 * `<category>/<name>.json` with glob 10, which walks each directory in reverse name order (the
 * categories' order can change from one boot to the next when the disk answers out of turn).
 */
function componentsInStrapiOrder(components: Component[]): string[] {
  const nameOf = (component: Component): string => component.uid.slice(component.category.length + 1);
  const descending = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
  return [...components]
    .sort((a, b) => descending(a.category, b.category) || descending(`${nameOf(a)}.json`, `${nameOf(b)}.json`))
    .map((component) => component.uid);
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
  if (!Array.isArray(value)) {
    walk.plan.issues.push(issue(at, messages.array(at, value)));
    // Strapi's relation check reads a lone value as a list of one: an object naming a known component passes it
    if (!isPlainObject(value) || !value.__component) walk.plan.storeError ??= messages.zoneItemWithoutComponent();
    else if (typeof value.__component !== 'string' || !walk.registry.component(value.__component))
      walk.plan.storeError ??= messages.invalidRelations();
    return;
  }
  const current = existing?.[name];
  const existingItems = Array.isArray(current) ? current.filter(isPlainObject) : [];
  const items = value.map((item) => ownedItem(existing, castItem(item)));
  checkRelated(walk, items, existingItems, at, true);
  const tracked = trackItemIssues(walk);
  fields.set[name] = inList(walk, existing, existingItems, undefined, items, (item, i) => {
    tracked.starts(i);
    const itemPath = [...at, String(i)];
    const componentPath = [...itemPath, '__component'];
    if (!isPlainObject(item)) {
      walk.plan.issues.push(issue(itemPath, messages.objectItem(itemPath, value[i])));
      walk.plan.storeError ??= messages.invalidRelations();
      return null;
    }
    const uid = item.__component;
    if (!uid) {
      // an empty name fails yup's list of values, checked before `required`; either way Strapi's
      // relation check cannot read the item
      const known = uid === '' ? componentsInStrapiOrder(walk.registry.listComponents()) : undefined;
      const message = known ? messages.oneOf(componentPath, known) : messages.required(componentPath);
      walk.plan.issues.push(issue(componentPath, message));
      walk.plan.storeError ??= messages.zoneItemWithoutComponent();
      return null;
    }
    if (typeof uid !== 'string' || !walk.registry.component(uid)) {
      // Strapi lists every component of the app, and its relation check cannot read the item
      const known = componentsInStrapiOrder(walk.registry.listComponents());
      walk.plan.issues.push(issue(componentPath, messages.oneOf(componentPath, known)));
      walk.plan.storeError ??= messages.invalidRelations();
      return null;
    }
    if (!attribute.components.includes(uid)) {
      // Strapi stores a known component the zone does not list; refused here
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
  tracked.reorder(
    at,
    items,
    (item) =>
      isPlainObject(item) && typeof item.__component === 'string'
        ? walk.registry.component(item.__component)
        : undefined,
    true,
  );
  checkCount(walk, attribute, value.length, at);
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
    // unique and uid attributes are left unset rather than null (sparse unique indexes)
    if (attribute.unique || attribute.type === 'uid') fields.unset.push(name);
    else fields.set[name] = null;
    return;
  }
  const cast = castScalar(attribute, at, value, { isDraft: walk.isDraft, rules: walk.validate });
  if (!cast.ok) {
    if ('storageError' in cast) walk.formatErrors.push(cast.storageError);
    else walk.plan.issues.push(...cast.issues);
    return;
  }
  fields.set[name] = cast.value;
  if (attribute.type === 'password') walk.plan.passwords.push({ target: fields.set, attribute: name });
  if (walk.validate && topLevel && (attribute.unique || attribute.type === 'uid'))
    walk.plan.unique.push({ attribute: name, value: cast.value });
}

function checkCount(
  walk: Walk,
  attribute: { min?: number; max?: number; required?: boolean },
  count: number,
  at: string[],
): void {
  if (!walk.validate) return;
  if (Number.isInteger(attribute.min) && (attribute.required || count > 0) && count < (attribute.min ?? 0))
    walk.plan.issues.push(issue(at, messages.minItems(at, attribute.min ?? 0)));
  if (typeof attribute.max === 'number' && count > attribute.max)
    walk.plan.issues.push(issue(at, messages.maxItems(at, attribute.max)));
}

/**
 * An owning to-many patch that does not depend on the stored list, written with `$push`/`$pull`
 * (no read, so no retry when other requests change the list at the same time): only connects
 * without position of ids not stored yet (Strapi moves a stored one to the end: a guard in the
 * write's filter sends that case back to the general path), or only disconnects. Not for links
 * whose target is exclusive (claims need the list). True when handled.
 */
function atomicPatch(
  walk: Walk,
  attribute: RelationAttribute,
  relation: RelationInfo | undefined,
  name: string,
  value: unknown,
): boolean {
  if (!walk.atomicLinks || !relation?.stored || !relation.multiple || relation.localizations) return false;
  const inverse = attribute.inversedBy ? walk.registry.relation(attribute.target, attribute.inversedBy) : undefined;
  if (inverse && !inverse.multiple) return false;
  const parsed = parseRelationInput(value, true, [name]);
  if (!parsed.ok || parsed.input.kind !== 'patch' || parsed.input.repeated !== null) return false;
  const { connect, disconnect } = parsed.input;
  if (connect.some((item) => item.position && !('end' in item.position))) return false;
  if (connect.length > 0 && disconnect.length > 0) return false;
  const ids = connect.map((item) => item.id);
  addTargets(walk, relation.target, ids);
  if (ids.length > 0) walk.plan.push[name] = ids;
  if (disconnect.length > 0) walk.plan.pull[name] = disconnect;
  return true;
}

/**
 * A polymorphic attribute's links replace the stored ones (Strapi deletes its join rows and
 * inserts the new list); their targets are checked like any relation's. The inverse sides
 * (`morphOne`/`morphMany`) are read only: input to them is ignored.
 */
function buildMorph(
  walk: Walk,
  attribute: MorphAttribute,
  name: string,
  value: unknown,
  at: string[],
  fields: Fields,
): void {
  if (!isMorphTo(attribute)) return;
  const parsed = parseMorphInput(walk, attribute, value, at);
  if (parsed.ok === 'dropped') return;
  if (!parsed.ok) {
    walk.plan.issues.push(...parsed.issues);
    return;
  }
  const links = parsed.links === null ? [] : Array.isArray(parsed.links) ? parsed.links : [parsed.links];
  for (const link of links) addTargets(walk, link.__type, [link.id]);
  fields.set[name] = parsed.links;
}

function buildRelation(
  walk: Walk,
  relation: RelationInfo | undefined,
  name: string,
  value: unknown,
  existing: StoredObject | null,
  mode: Mode,
  at: string[],
  topLevel: boolean,
  fields: Fields,
): void {
  if (!relation || relation.localizations) return;
  const parsed = parseRelationInput(value, relation.multiple, at);
  if (!parsed.ok) {
    const unreadable = unreadableRelation(value);
    if (unreadable?.kind === 'unknown') {
      // its place among the targets (Strapi reports the first type, in attribute order, that misses entries)
      if (!walk.plan.targets.has(relation.target)) walk.plan.targets.set(relation.target, new Set());
      addTargets(walk, relation.target, unreadable.valid);
      walk.plan.unmatched.set(relation.target, (walk.plan.unmatched.get(relation.target) ?? 0) + unreadable.ids.length);
    } else if (unreadable?.kind === 'invalidLists') walk.plan.storeError ??= 'Invalid relations';
    else walk.plan.issues.push(...parsed.issues);
    return;
  }
  addTargets(walk, relation.target, referencedIds(parsed.input));
  const input = mode === 'create' ? strictOnCreate(parsed.input) : parsed.input;
  if (relation.stored) {
    const before = numberList(existing?.[name]);
    // what a write adds and removes (claims, order keys) is relative to what it read
    walk.plan.readsStored = true;
    const outcome = applyRelationInput(before, input, relation.multiple);
    if (!outcome.ok) {
      walk.plan.relationErrors.push(outcome.message);
      return;
    }
    const after = relation.multiple ? outcome.ids : outcome.ids.slice(-1);
    fields.set[name] = relation.multiple ? after : (after[0] ?? null);
    if (topLevel) walk.plan.links.push({ attribute: name, relation, before, after });
  } else if (relation.inverse && topLevel) {
    // a new entry has no links yet, so its connect positions are checked here (before any id is taken)
    const outcome = mode === 'create' ? applyRelationInput([], input, relation.multiple) : null;
    if (outcome && !outcome.ok) walk.plan.relationErrors.push(outcome.message);
    else walk.plan.inverse.push({ attribute: name, relation: { ...relation, inverse: relation.inverse }, input });
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

/**
 * Strapi's answer to a component id the entry does not have, named after the attribute holding it:
 * an ApplicationError, or for a dynamic zone a plain error (name `Error`).
 */
function unrelatedComponent(at: string[], inZone: boolean): AppError {
  const attribute = [...at].reverse().find((part) => !/^\d+$/.test(part)) ?? '';
  const message = `Some of the provided components in ${attribute} are not related to the entity`;
  return inZone ? new HttpError(400, 'Error', message) : new ApplicationError(message);
}

/**
 * A component object: kept (same id, fields updated) when it names an existing id, new otherwise.
 * Its own values the database layer cannot convert fail when its row is written: after its nested
 * components, at its place on Strapi's clock.
 */
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
  const outer = walk.formatErrors;
  walk.formatErrors = [];
  const order = walk.clock.calls++;
  let built: StoredObject | null;
  if (value.id !== undefined && value.id !== null) {
    // an id the entry does not have was reported by checkRelated; Strapi's validation, which runs
    // before, still checks the item's values (their errors are the answer when there are any)
    const id = parseComponentId(value.id);
    const current = existingItems.find((item) => item.id === id);
    if (id === undefined || !current) {
      buildFields(walk, component, value, null, 'create', at, false, { id: 0 });
      built = null;
    } else {
      walk.plan.readsStored = true;
      const merged: StoredObject = { ...current, id };
      delete merged.__component;
      const fields = buildFields(walk, component, value, current, 'update', at, false, merged);
      fields.unset.forEach((key) => delete merged[key]);
      built = merged;
    }
  } else {
    built = { id: 0 };
    buildFields(walk, component, value, null, 'create', at, false, built);
    walk.plan.newComponents.push({ uid, target: built, attribute: walk.clock.attribute, time: walk.clock.time, order });
  }
  const own = walk.formatErrors;
  walk.formatErrors = outer;
  if (own.length > 0)
    walk.plan.componentErrors.push({
      at: [walk.clock.attribute, walk.clock.time, order],
      error: new ValidationError(own[0]),
    });
  return built;
}

/** Everything a create or update of `contentType` with `data` will write, and what is wrong with it. */
export interface BuildOptions {
  mode: Mode;
  existing: StoredObject | null;
  isDraft: boolean;
  canRelate?: (uid: string) => boolean;
  /** see WritePlan.push (updates only) */
  atomicLinks?: boolean;
  /**
   * false: only what storing needs is checked (types, shapes, relation input), as Strapi's query
   * engine writes: no required attributes, lengths, patterns, ranges, formats, enumeration values,
   * list sizes, media types or unique look-ups (the unique indexes still refuse a taken value).
   */
  validate?: boolean;
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
    componentErrors: [],
    storageErrors: [],
    storeError: null,
    relationErrors: [],
    links: [],
    readsStored: false,
    push: {},
    pull: {},
    newComponents: [],
    targets: new Map(),
    unmatched: new Map(),
    unique: [],
    inverse: [],
    passwords: [],
    media: [],
  };
  const walk: Walk = {
    registry,
    entityMode: options.mode,
    isDraft: options.isDraft,
    validate: options.validate ?? true,
    formatErrors: [],
    plan,
    canRelate: options.canRelate ?? (() => true),
    atomicLinks: options.mode === 'update' && options.atomicLinks === true,
    clock: { attribute: 0, time: 0, calls: 0 },
  };
  const fields = buildFields(walk, contentType, data, options.existing, options.mode, [], true);
  plan.set = fields.set;
  plan.unset = fields.unset;
  plan.storageErrors = walk.formatErrors;
  return plan;
}
