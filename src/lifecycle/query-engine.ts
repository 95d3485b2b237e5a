/**
 * `strapi.db.query(uid)` (also `strapi.query(uid)`) of Strapi v4, on the entity service: `where`
 * (the filters language), `select`, `populate`, `orderBy`, `limit`, `offset`; single-entry writes
 * pick the first entry `where` matches. Its database lifecycle events are Strapi's: the read
 * actions around reads, the per-entry hooks around `create`/`update`/`delete`, and only
 * `beforeDeleteMany`/`afterDeleteMany` (…`CreateMany`, …`UpdateMany`) around the `*Many` actions.
 * `load`/`loadPages` read relational fields of one entry as its entity service's do (entity-load.ts).
 */
import { populateFromQuery, type PlainEntry } from '../query/index.js';
import type { DbLifecycles } from '../service-context.js';
import type { EntityPage, EntityService, QueryEntityService } from './entity-service.js';
import { entityParams, withManyHooks, withReadHooks } from './read-hooks.js';

type Params = Record<string, unknown>;

export interface QueryEngine {
  findOne(params?: Params): Promise<PlainEntry | null>;
  findMany(params?: Params): Promise<PlainEntry[]>;
  count(params?: Params): Promise<number>;
  /** `[entries, count]` of what `where` matches */
  findWithCount(params?: Params): Promise<[PlainEntry[], number]>;
  /** `page` (1) and `pageSize` (10) of what `where` matches, and its total */
  findPage(params?: Params): Promise<EntityPage>;
  create(params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  createMany(params: Params & { data: Array<Record<string, unknown>> }): Promise<{ count: number; ids: number[] }>;
  update(params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  updateMany(params: Params & { data: Record<string, unknown> }): Promise<{ count: number }>;
  delete(params?: Params): Promise<PlainEntry | null>;
  deleteMany(params?: Params): Promise<{ count: number }>;
  /**
   * `field` of the entry `entity.id` populated with `params` (a populate in the query engine's
   * words: `select`, `where`, `orderBy`, `limit`, `offset`, `populate`, `count`); a list of fields:
   * `{ [field]: value }`. null when there is no such entry.
   */
  load(entity: unknown, fields: unknown, params?: unknown): Promise<unknown>;
  /** `page` (1) and `pageSize` (10) of a to-many relation of the entry, and their total */
  loadPages(entity: unknown, field: unknown, params?: Params): Promise<EntityPage>;
}

/** The entity services a query engine uses: one running the per-entry hooks, one running none. */
export interface QueryEngineHost {
  entities: QueryEntityService;
  silent: EntityService;
  lifecycles: DbLifecycles;
}

/** A query engine populate of one field (`true`, or its params) in the entity service's words. */
function loadParams(params: unknown): Params {
  const converted = populateFromQuery({ field: params }) as Params;
  const request = converted.field;
  return typeof request === 'object' && request !== null ? (request as Params) : {};
}

export function createQueryEngine(host: QueryEngineHost, uid: string): QueryEngine {
  const { entities, silent, lifecycles } = host;
  const rawMany = async (params: Params): Promise<PlainEntry[]> => {
    const found = await silent.findMany(uid, params);
    return Array.isArray(found) ? found : found ? [found] : [];
  };
  const first = async (params: Params = {}) => (await rawMany({ ...entityParams(params), limit: 1 }))[0] ?? null;
  const matching = (params: Params = {}) => rawMany(entityParams({ where: params.where }));
  const findMany = (params: Params = {}) => withReadHooks(lifecycles, 'FindMany', uid, entityParams(params), rawMany);
  const count = (params: Params = {}) =>
    withReadHooks(lifecycles, 'Count', uid, entityParams(params), (read) => silent.count(uid, read));
  return {
    findOne: (params = {}) =>
      withReadHooks(
        lifecycles,
        'FindOne',
        uid,
        entityParams(params),
        async (read) => (await rawMany({ ...read, limit: 1 }))[0] ?? null,
      ),
    findMany,
    count,
    findWithCount: (params = {}) => Promise.all([findMany(params), count(params)]),
    // Strapi's: page and pageSize (numbers, whatever they are) replace any limit and offset
    async findPage({ page = 1, pageSize = 10, ...params } = {}) {
      const size = Number(pageSize);
      const at = Number(page);
      const [results, total] = await Promise.all([
        findMany({ ...params, limit: size, offset: Math.max(at - 1, 0) * size }),
        count(params),
      ]);
      return { results, pagination: { page: at, pageSize: size, pageCount: Math.ceil(total / size), total } };
    },
    create: ({ data, ...params }) => entities.create(uid, { ...entityParams(params), data }),
    createMany: (params) =>
      withManyHooks(lifecycles, 'CreateMany', uid, params, async ({ data }) => {
        const ids: number[] = [];
        for (const item of Array.isArray(data) ? data : []) {
          const created = await silent.create(uid, { data: item as Record<string, unknown> });
          if (created) ids.push(created.id);
        }
        return { count: ids.length, ids };
      }),
    async update({ data, where, ...params }) {
      const target = await first({ where });
      return target ? entities.update(uid, target.id, { ...entityParams(params), data }) : null;
    },
    updateMany: (params) =>
      withManyHooks(lifecycles, 'UpdateMany', uid, params, async ({ where, data }) => {
        const targets = await matching({ where });
        for (const target of targets) await silent.update(uid, target.id, { data: data as Record<string, unknown> });
        return { count: targets.length };
      }),
    async delete(params = {}) {
      const target = await first({ where: params.where });
      return target ? entities.delete(uid, target.id, entityParams(params)) : null;
    },
    load: (entity, fields, params) =>
      Array.isArray(fields)
        ? entities.loadFields(uid, entity, fields, loadParams(params))
        : entities.load(uid, entity, fields, loadParams(params)),
    loadPages(entity, field, params = {}) {
      const { page, pageSize, ...query } = params;
      return entities.loadPages(uid, entity, field, loadParams(query), {
        ...(page === undefined ? {} : { page }),
        ...(pageSize === undefined ? {} : { pageSize }),
      });
    },
    deleteMany: (params = {}) =>
      withManyHooks(lifecycles, 'DeleteMany', uid, params, async ({ where }) => {
        const targets = await matching({ where });
        for (const target of targets) await silent.delete(uid, target.id);
        return { count: targets.length };
      }),
  };
}
