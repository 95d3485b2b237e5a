/**
 * `strapi.entityService.load(uid, entity, field, params)` and `loadPages(uid, entity, field, params,
 * pagination)` of Strapi 4.26: one relational field of one entry (a relation, media, a component or
 * a dynamic zone; `loadPages`: a to-many relation, one page of it and the total), read with the
 * field's `params` (`fields`, `filters`, `sort`, `populate`, `start`/`limit`, `count`,
 * `publicationState`) as a populate of that entry: one read, however many entries are related.
 */
import type { ContentType } from '../content-types/index.js';
import { POPULATE_ATTRIBUTE, type PlainEntry } from '../query/index.js';

type Params = Record<string, unknown>;

export interface LoadReads {
  schema(uid: string): ContentType;
  /**
   * The entity service's findOne (its read hooks run, as Strapi's `load` runs the query engine's
   * findOne), with `alongside` added to its populate after the hooks (an answer they never see).
   */
  findOne(uid: string, id: number, params: Params, alongside?: Params): Promise<PlainEntry | null>;
  /** `page` and `pageSize` checked, with their defaults (1 and 10) */
  pageParams(pagination: Params): { page: number; pageSize: number };
}

export interface EntityLoader {
  load(uid: string, entity: unknown, field: unknown, params?: Params): Promise<unknown>;
  /**
   * Strapi's query engine's `load` of a list of fields: the entry's `{ [field]: value }` of each
   * (null when there is no such entry), in one read.
   */
  loadFields(uid: string, entity: unknown, fields: unknown[], params?: Params): Promise<Record<string, unknown> | null>;
  loadPages(
    uid: string,
    entity: unknown,
    field: unknown,
    params?: Params,
    pagination?: Params,
  ): Promise<{
    results: PlainEntry[];
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
  }>;
}

/** The output key of the count riding along a page's read (never an attribute name: those are identifiers or spaced words). */
const TOTAL = '\u0000total';
const RELATIONAL = new Set(['relation', 'media', 'component', 'dynamiczone']);
const TO_MANY = new Set(['oneToMany', 'manyToMany']);

/** The id Strapi reads the entry by (`entity.id`); null when there is none to read. */
function idOf(entity: unknown): number | null {
  const id = typeof entity === 'object' && entity !== null ? (entity as { id?: unknown }).id : undefined;
  return (typeof id === 'number' || typeof id === 'string') && /^[1-9]\d{0,14}$/.test(String(id)) ? Number(id) : null;
}

/** Strapi's checks, with its messages (plain errors there too: a mistake in the app's code, not in a request). */
function checkedField(schema: ContentType, field: unknown): string {
  if (typeof field !== 'string') throw new Error(`Invalid load. Expected "${String(field)}" to be a string`);
  const attribute = Object.hasOwn(schema.attributes, field) ? schema.attributes[field] : undefined;
  if (!attribute || !RELATIONAL.has(attribute.type))
    throw new Error(`Invalid load. Expected ${field} to be a relational attribute`);
  return field;
}

export function createEntityLoader(reads: LoadReads): EntityLoader {
  /** the entry `entity.id` with `names` populated by `params`, null when there is none */
  const readFields = (uid: string, entity: unknown, names: string[], params: Params) => {
    const id = idOf(entity);
    if (id === null) return Promise.resolve(null);
    return reads.findOne(uid, id, {
      fields: ['id'],
      populate: Object.fromEntries(names.map((name) => [name, params])),
    });
  };
  return {
    async load(uid, entity, field, params = {}) {
      const name = checkedField(reads.schema(uid), field);
      const entry = await readFields(uid, entity, [name], params);
      return entry ? (entry[name] ?? null) : null;
    },

    async loadFields(uid, entity, fields, params = {}) {
      const schema = reads.schema(uid);
      const names = fields.map((field) => checkedField(schema, field));
      const entry = await readFields(uid, entity, names, params);
      return entry ? Object.fromEntries(names.map((name) => [name, entry[name] ?? null])) : null;
    },

    async loadPages(uid, entity, field, params = {}, pagination = {}) {
      const schema = reads.schema(uid);
      const attribute =
        typeof field === 'string' && Object.hasOwn(schema.attributes, field) ? schema.attributes[field] : undefined;
      if (typeof field !== 'string' || attribute?.type !== 'relation' || !TO_MANY.has(attribute.relation))
        throw new Error(`Invalid load. Expected "${String(field)}" to be an anyToMany relational attribute`);
      // the page comes from `pagination` (else from params), over any start/limit of the params, as Strapi's
      const { page: askedPage, pageSize: askedSize, start: _start, limit: _limit, ...matching } = params;
      const { page, pageSize } = reads.pageParams({ page: askedPage, pageSize: askedSize, ...pagination });
      const id = idOf(entity);
      // the total rides along the same read: a count of what the same filters match
      const count = {
        [POPULATE_ATTRIBUTE]: field,
        count: true,
        filters: matching.filters,
        publicationState: matching.publicationState,
      };
      const entry =
        id === null
          ? null
          : await reads.findOne(
              uid,
              id,
              { fields: ['id'], populate: { [field]: { ...matching, start: (page - 1) * pageSize, limit: pageSize } } },
              { [TOTAL]: count },
            );
      const counted = (entry?.[TOTAL] as { count?: unknown } | undefined)?.count;
      const total = typeof counted === 'number' ? counted : 0;
      const results = entry && Array.isArray(entry[field]) ? (entry[field] as PlainEntry[]) : [];
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
  };
}
