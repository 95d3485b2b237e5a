import { isPrivate, isScalar, type Schema } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import { asList } from '../qs-values.js';

const defaults = new WeakMap<Schema, readonly string[]>();
const defaultsWithPrivate = new WeakMap<Schema, readonly string[]>();

/**
 * Every scalar attribute a client may read (Strapi's default selection, `*`), private ones too for
 * the app's own code (`withPrivate`); computed once per schema.
 */
export function defaultFields(schema: Schema, withPrivate = false): readonly string[] {
  const cache = withPrivate ? defaultsWithPrivate : defaults;
  let names = cache.get(schema);
  if (!names) {
    names = Object.freeze(
      Object.entries(schema.attributes)
        .filter(([, attribute]) => isScalar(attribute) && (withPrivate || !isPrivate(attribute)))
        .map(([name]) => name),
    );
    cache.set(schema, names);
  }
  return names;
}

/**
 * `fields` as Strapi 4.26 reads it: `fields=title`, `fields[0]=title&fields[1]=slug`, `*`. Each
 * name is trimmed first. The comma form, the object form, an empty name, a private, unknown or
 * non-scalar attribute are 400s naming what was asked (`Invalid parameter ` for an empty name, as
 * Strapi words it). `id` is always returned, so naming it is accepted.
 */
export function parseFields(schema: Schema, raw: unknown, withPrivate = false): readonly string[] {
  // a key without a value (`?fields`, qs's strict null) is not given, as Strapi's isNil reads it
  if (raw === undefined || raw === null) return defaultFields(schema, withPrivate);
  const items = typeof raw === 'string' ? [raw] : asList(raw);
  if (!items) throw new ValidationError('Invalid parameter fields', {});
  const selected = new Set<string>();
  for (const item of items) {
    // `fields[0]` without a value names nothing: the entry's id only
    if (item === null) continue;
    if (typeof item !== 'string') throw new ValidationError('Invalid parameter fields', {});
    const name = item.trim();
    if (name === '*') {
      for (const field of defaultFields(schema, withPrivate)) selected.add(field);
      continue;
    }
    if (name === 'id') continue;
    const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
    if (!attribute || (isPrivate(attribute) && !withPrivate) || !isScalar(attribute))
      throw new ValidationError(`Invalid parameter ${name}`, {});
    selected.add(name);
  }
  return [...selected];
}
