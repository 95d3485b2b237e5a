/**
 * `strapi.db.metadata`: Strapi 4.26's database metadata, as far as app code and `@strapi/utils`
 * read it. Its traversals (sanitize and validate of a query) look a key that is no attribute, such
 * as `id`, up in `strapi.db.metadata.get(uid).columnToAttribute`; projects read `tableName` and
 * `attributes`. Each model's entry is made from the registry when first read: its uid, names,
 * `tableName` (the collection), `attributes` (`id` first, then the schema's and the system ones) and
 * `columnToAttribute` (an attribute's `columnName`, else its name).
 */
import type { Registry, Schema } from '../content-types/index.js';

export interface ModelMetadata {
  uid: string;
  singularName?: string;
  tableName: string;
  attributes: Record<string, unknown>;
  columnToAttribute: Record<string, string>;
  lifecycles: Record<string, unknown>;
  indexes: unknown[];
}

export interface DbMetadata {
  /** throws as Strapi's does for a uid no model has */
  get(uid: string): ModelMetadata;
  has(uid: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<ModelMetadata>;
  readonly size: number;
}

function metadataOf(schema: Schema): ModelMetadata {
  const attributes: Record<string, unknown> = { id: { type: 'increments' }, ...schema.attributes };
  const columnToAttribute: Record<string, string> = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    const column = (attribute as { columnName?: unknown }).columnName;
    columnToAttribute[typeof column === 'string' && column !== '' ? column : name] = name;
  }
  return {
    uid: schema.uid,
    ...(schema.modelType === 'contentType' ? { singularName: schema.singularName } : {}),
    tableName: schema.collectionName,
    attributes,
    columnToAttribute,
    lifecycles: {},
    indexes: [],
  };
}

export function createDbMetadata(registry: Registry): DbMetadata {
  const all = () => new Map(registry.all().map((schema) => [schema.uid, schema]));
  return {
    get(uid) {
      const schema = registry.schema(uid);
      if (!schema) throw new Error(`Metadata for "${uid}" not found`);
      return metadataOf(schema);
    },
    has: (uid) => registry.schema(uid) !== undefined,
    keys: () => all().keys(),
    values: () => [...all().values()].map(metadataOf).values(),
    get size() {
      return registry.all().length;
    },
  };
}
