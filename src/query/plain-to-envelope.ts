import type { EnvelopeEntry, PlainEntry } from './format.js';
import type { EntrySelection, PopulateMap, PopulateNode } from './read-tree.js';

type Doc = Record<string, unknown>;

/**
 * A flat entry, as an after-hook left it, in Strapi's REST shape for the selection it was read
 * with: populated relations become `{ data }` (their `meta` taken from `read`, the same entry
 * formatted before the hook), components keep their shape, and what the hook added is an
 * attribute as it is (Strapi's response transform does the same).
 */
export function envelopeOfPlain(plain: PlainEntry, selection: EntrySelection, read?: EnvelopeEntry): EnvelopeEntry {
  const { id, ...values } = plain;
  return { id, attributes: level(values, selection.populate, read?.attributes) };
}

function level(values: Doc, populate: PopulateMap, read: Doc | undefined): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(values)) {
    const node = populate[key];
    out[key] = node ? populated(node, value, read?.[key]) : value;
  }
  return out;
}

function populated(node: PopulateNode, value: unknown, read: unknown): unknown {
  if (node.kind === 'relation') {
    if (node.count) return { data: { attributes: isDoc(value) ? value : { count: 0 } } };
    const readData = isDoc(read) ? read.data : undefined;
    const entry = (item: unknown, readItem: unknown): unknown =>
      isEntry(item) ? envelopeOfPlain(item, node.selection, isEnvelope(readItem) ? readItem : undefined) : item;
    if (!node.relation.multiple) return { data: value === null || value === undefined ? null : entry(value, readData) };
    const data = Array.isArray(value)
      ? value.map((item, i) => entry(item, Array.isArray(readData) ? readData[i] : undefined))
      : [];
    return isDoc(read) && read.meta !== undefined ? { data, meta: read.meta } : { data };
  }
  if (node.kind === 'morph') {
    if (node.relation !== 'morphOne' && node.relation !== 'morphMany') return value;
    const entry = (item: unknown): unknown => {
      if (!isEntry(item)) return item;
      const { id, ...attributes } = item;
      return { id, attributes };
    };
    return { data: Array.isArray(value) ? value.map(entry) : value === undefined ? null : entry(value) };
  }
  if (node.kind === 'component') {
    if (node.count) return value;
    const one = (item: unknown) => (isDoc(item) ? level(item, node.selection.populate, undefined) : item);
    return Array.isArray(value) ? value.map(one) : one(value);
  }
  if (!Array.isArray(value)) return value;
  return value.map((item) => {
    const selection =
      isDoc(item) && typeof item.__component === 'string' ? node.components[item.__component] : undefined;
    return selection && isDoc(item) ? level(item, selection.populate, undefined) : item;
  });
}

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

function isEntry(value: unknown): value is PlainEntry {
  return isDoc(value) && typeof value.id === 'number';
}

function isEnvelope(value: unknown): value is EnvelopeEntry {
  return isDoc(value) && typeof value.id === 'number' && isDoc(value.attributes);
}
