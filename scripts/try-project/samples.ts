// Values the trial writes: per attribute type, one each type accepts (respecting length and range
// bounds). Each pass of the trial writes its own variant, so a `unique` attribute does not collide
// with what an earlier pass stored.
import { isManagedField, type Attribute, type Registry, type Schema } from '../../src/content-types/index.js';

export type Json = Record<string, unknown>;

const NESTING = 3;

/** `0` for the first pass, `1` for the second, …: suffixes strings and offsets unique numbers. */
export type Variant = number;

function sample(registry: Registry, attribute: Attribute, name: string, depth: number, variant: Variant): unknown {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext': {
      if (attribute.regex) return undefined;
      // the variant's suffix survives a short maxLength (a 3-letter unique code), so passes differ
      const suffix = variant > 0 ? `-${variant}` : '';
      const max = attribute.maxLength;
      const base = max ? `${name}-sample`.slice(0, Math.max(0, max - suffix.length)) : `${name}-sample`;
      return `${base}${suffix}`.padEnd(attribute.minLength ?? 0, 'x').slice(0, max);
    }
    case 'email':
      return `${name.toLowerCase()}-${Date.now()}-${variant}@example.com`;
    case 'uid':
      return `${name.toLowerCase()}-${Date.now().toString(36)}-${variant}`;
    case 'password':
      return 'Password123';
    case 'enumeration':
      return attribute.enum?.[0];
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal': {
      const least = attribute.min !== undefined ? Number(attribute.min) : 1;
      return attribute.unique ? least + variant : least;
    }
    case 'boolean':
      return true;
    // a day, a second, a second later per variant: a `unique` one does not collide with an earlier pass's
    case 'date':
      return new Date(Date.UTC(2024, 0, 2 + variant)).toISOString().slice(0, 10);
    case 'time':
      return new Date(Date.UTC(2024, 0, 2, 10, 11, 12 + variant)).toISOString().slice(11, 23);
    case 'datetime':
    case 'timestamp':
      return new Date(Date.UTC(2024, 0, 2, 3, 4, 5 + variant)).toISOString();
    case 'json':
      return { sample: true };
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: 'sample' }] }];
    case 'component': {
      const component = registry.component(attribute.component);
      if (!component || depth >= NESTING) return undefined;
      const value = fill(registry, component, variant, depth + 1);
      return attribute.repeatable ? Array.from({ length: Math.max(1, attribute.min ?? 1) }, () => value) : value;
    }
    case 'dynamiczone': {
      const uid = attribute.components[0] ?? '';
      const component = registry.component(uid);
      if (!component || depth >= NESTING) return undefined;
      return [{ __component: uid, ...fill(registry, component, variant, depth + 1) }];
    }
    default:
      return undefined;
  }
}

/** An entry's data: every attribute the client writes that has a sample value (relations are linked by the caller). */
export function fill(registry: Registry, schema: Schema, variant: Variant, depth = 0): Json {
  const data: Json = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (isManagedField(schema, name)) continue;
    const value = sample(registry, attribute, name, depth, variant);
    if (value !== undefined) data[name] = value;
  }
  return data;
}
