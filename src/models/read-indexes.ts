import { LINK_ORDER } from './storage-fields.js';
import {
  isMorphTo,
  isPrivate,
  isScalar,
  type Attribute,
  type AttributeType,
  type ContentType,
} from '../content-types/index.js';

/** One index the read path asks the database for (created with the content-type's collection). */
export interface ReadIndex {
  keys: Record<string, 1>;
}

/** Scalar types whose values are long or unstructured: no index of their own. */
const UNORDERED_TYPES = new Set<AttributeType>(['text', 'richtext', 'password', 'json']);

/**
 * The indexes every read of a content-type can be served by, derived from its schema:
 * - the default match of a list (`locale`, then `publishedAt`), so a page's total is counted
 *   from index entries without reading entries;
 * - every stored relation followed by the same fields, so a relation filter (pushed down to an
 *   `$in` of the related ids) and its count are served the same way, and populating an inverse
 *   side finds the owning entries;
 * - every to-one relation whose target lists the entries back in order (a manyToOne `inversedBy` a
 *   oneToMany), followed by its order key, so that populating that list (`$sort` on the key, then a
 *   window per target) walks the target's entries in order instead of reading all of them;
 * - every short scalar attribute and the timestamps alone, so a page sorted on one of them is a
 *   walk of that index rather than a sort of every match;
 * (`localizations` are served by the unique `{ localeGroup, locale }` index of mongoose-schema.ts.)
 * Unique attributes have their own unique index (mongoose-schema.ts), which also serves sorts.
 */
export function readIndexes(contentType: ContentType): ReadIndex[] {
  // plugin content-types (users, tokens, files) declare the indexes their plugin needs, besides their relations
  if (contentType.namespace !== 'api') {
    return Object.entries(contentType.relations)
      .filter(([, relation]) => relation.stored)
      .map(([name]): ReadIndex => ({ keys: { [name]: 1 } }))
      .concat(morphIndexes(contentType));
  }
  const defaults: Record<string, 1> = {};
  if (contentType.localized) defaults.locale = 1;
  if (contentType.draftAndPublish) defaults.publishedAt = 1;
  const out: ReadIndex[] = [];
  const defaultFields = Object.keys(defaults);
  // a single type's `{ locale: 1 }` is already its unique index (mongoose-schema.ts)
  const singleLocale = contentType.kind === 'singleType' && defaultFields.join() === 'locale';
  if (defaultFields.length > 0 && !singleLocale) out.push({ keys: defaults });
  for (const [name, relation] of Object.entries(contentType.relations)) {
    if (relation.stored) out.push({ keys: { [name]: 1, ...defaults } });
    const attribute = contentType.attributes[name];
    if (attribute?.type === 'relation' && attribute.relation === 'manyToOne' && attribute.inversedBy)
      out.push({ keys: { [name]: 1, [`${LINK_ORDER}.${name}`]: 1 } });
  }
  out.push(...morphIndexes(contentType));
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (name === 'publishedAt' || (name === 'locale' && contentType.localized) || isPrivate(attribute)) continue;
    if (hasUniqueIndex(attribute) || !isScalar(attribute) || UNORDERED_TYPES.has(attribute.type)) continue;
    out.push({ keys: { [name]: 1 } });
  }
  return out;
}

/** The entries linking to one entry by a polymorphic attribute: its `morphOne`/`morphMany` side, the sweep of a deleted one. */
function morphIndexes(contentType: ContentType): ReadIndex[] {
  return Object.entries(contentType.attributes)
    .filter(([, attribute]) => isMorphTo(attribute))
    .map(([name]) => ({ keys: { [`${name}.id`]: 1 } }));
}

/** `unique` and `uid` attributes (Strapi's validator checks both) get a unique index of their own. */
export function hasUniqueIndex(attribute: Attribute): boolean {
  return attribute.unique === true || attribute.type === 'uid';
}
