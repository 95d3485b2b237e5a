/**
 * `strapi.entityService` of Strapi v4, on the service's operations: flat entries
 * (`{ id, ...attributes }`, relations as entries or arrays), no permission checks, no page limit
 * unless `limit` is given (`findPage`: pages of `pageSize`, with their total; `load`/`loadPages`:
 * one relational field of one entry), drafts included unless `publicationState: 'live'`; writes go through the
 * same validation as REST (bad data throws the same ValidationError).
 */
import { PERMISSION_UID } from '../content-types/index.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import {
  create,
  entityReadQuery as readQuery,
  pageParams,
  remove,
  update,
  type OperationContext,
} from '../operations/index.js';
import { APP_CODE, readEntries, readEntry, type PlainEntry } from '../query/index.js';
import type { ServiceContext } from '../service-context.js';
import { isPlainObject } from '../query/qs-values.js';
import { createEntityLoader, type EntityLoader } from './entity-load.js';
import { withReadHooks } from './read-hooks.js';
import { UnsupportedStrapiApi } from './unsupported.js';

type Params = Record<string, unknown>;

export interface EntityService {
  findMany(uid: string, params?: Params): Promise<PlainEntry[] | PlainEntry | null>;
  findOne(uid: string, id: number | string, params?: Params): Promise<PlainEntry | null>;
  count(uid: string, params?: Params): Promise<number>;
  create(uid: string, params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  update(
    uid: string,
    id: number | string,
    params: Params & { data: Record<string, unknown> },
  ): Promise<PlainEntry | null>;
  delete(uid: string, id: number | string, params?: Params): Promise<PlainEntry | null>;
  /** one page (`page`, `pageSize`: 1 and 10 by default) and the total of what the params match */
  findPage(uid: string, params?: Params): Promise<EntityPage>;
  load: EntityLoader['load'];
  loadPages: EntityLoader['loadPages'];
}

/** An entity service, and what only the query engine built on it reads with (EntityLoader.loadFields). */
export type QueryEntityService = EntityService & Pick<EntityLoader, 'loadFields'>;

export interface EntityPage {
  results: PlainEntry[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

function entryId(id: number | string): string {
  return String(id);
}

/**
 * `queryEngine`: the writes are Strapi's query engine's (`strapi.db.query`, which writes through
 * this service here): passwords stored as given, no entity validation (WriteContext.queryEngine).
 */
export function createEntityService(
  service: ServiceContext,
  options: { queryEngine?: boolean } = {},
): QueryEntityService {
  // every entry by default (Strapi's entity service has no page size), nothing counted
  const ctx: OperationContext & { queryEngine?: boolean } = {
    ...service,
    config: {
      ...service.config,
      api: {
        rest: { ...service.config.api.rest, defaultLimit: Number.MAX_SAFE_INTEGER, maxLimit: -1, withCount: false },
      },
    },
    access: APP_CODE,
    ...(options.queryEngine ? { queryEngine: true } : {}),
  };
  const known = (uid: string) => {
    const contentType = ctx.registry.contentType(uid);
    if (!contentType)
      throw new UnsupportedStrapiApi(`strapi.entityService on "${uid}"`, 'it is not a content-type of this app');
    return contentType;
  };
  const readOne = async (uid: string, id: number | string, params: Params) => {
    known(uid);
    if (!/^[1-9]\d{0,14}$/.test(entryId(id))) return null;
    return readEntry(ctx, uid, { _id: Number(id) }, readQuery(params, false), { style: 'plain' });
  };
  /**
   * A permission granted again (a bootstrap that creates the role's permissions at every start, or
   * one action twice): Strapi stores a second identical row; here one (role, action) is one
   * document (a unique index), so the one stored answers. Looked up before the write, which the
   * index would refuse (and, inside an app's transaction, abort it); null when none is stored.
   */
  const grantedAlready = async (data: Record<string, unknown>): Promise<{ id: number } | null> => {
    if (typeof data.action !== 'string') return null;
    const role = typeof data.role === 'object' && data.role !== null ? (data.role as { id?: unknown }).id : data.role;
    if (typeof role !== 'number' && typeof role !== 'string') return null;
    const [stored] = (
      await readEntries(ctx, PERMISSION_UID, { filters: { action: data.action, role: { id: role } }, fields: ['id'] })
    ).entries as Array<{ id: number }>;
    return stored ?? null;
  };
  /**
   * The database lifecycles' read actions, as Strapi's entity service reads through its query
   * engine; `alongside` joins the populate after the hooks, and its answers are kept from them.
   */
  const findOneWith = async (uid: string, id: number | string, params: Params, alongside: Params = {}) => {
    const extra: Params = {};
    const entry = await withReadHooks(
      service.lifecycles,
      'FindOne',
      uid,
      { ...params, filters: { id } },
      async ({ filters: _id, ...read }) => {
        const populate = isPlainObject(read.populate) ? { ...read.populate, ...alongside } : read.populate;
        const found = await readOne(uid, id, Object.keys(alongside).length > 0 ? { ...read, populate } : read);
        for (const key of Object.keys(alongside))
          if (found && Object.hasOwn(found, key)) {
            extra[key] = found[key];
            delete found[key];
          }
        return found;
      },
    );
    return entry && Object.keys(extra).length > 0 ? { ...entry, ...extra } : entry;
  };
  const findOne: EntityService['findOne'] = (uid, id, params = {}) => findOneWith(uid, id, params);
  const findMany: EntityService['findMany'] = (uid, params = {}) =>
    withReadHooks(service.lifecycles, 'FindMany', uid, params, async (read) => {
      if (known(uid).kind === 'singleType') return readEntry(ctx, uid, {}, readQuery(read, false), { style: 'plain' });
      return (await readEntries(ctx, uid, readQuery(read, true), { style: 'plain' })).entries;
    });
  const count: EntityService['count'] = (uid, params = {}) =>
    withReadHooks(service.lifecycles, 'Count', uid, params, async (read) => {
      known(uid);
      const query = { ...readQuery(read, false), pagination: { start: 0, limit: 1, withCount: true } };
      return (await readEntries(ctx, uid, query)).pagination.total ?? 0;
    });
  const loader = createEntityLoader({ schema: known, findOne: findOneWith, pageParams });
  return {
    findMany,
    findOne,
    count,
    load: loader.load,
    loadPages: loader.loadPages,
    loadFields: loader.loadFields,
    // Strapi's: the page (its start and limit, whatever offset was given) and the count, side by side
    async findPage(uid, params = {}) {
      const { page, pageSize } = pageParams(params);
      const { page: _page, pageSize: _size, start: _start, limit: _limit, ...matching } = params;
      const [found, total] = await Promise.all([
        findMany(uid, { ...matching, start: (page - 1) * pageSize, limit: pageSize }),
        count(uid, matching),
      ]);
      const results = Array.isArray(found) ? found : found ? [found] : [];
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
    async create(uid, { data, ...params }) {
      const stored = uid === PERMISSION_UID ? await grantedAlready(data) : null;
      if (stored) return readOne(uid, stored.id, params);
      // a draft unless publishedAt is given, as Strapi's entity service creates them
      const body = { data: known(uid).draftAndPublish ? { publishedAt: null, ...data } : data };
      const created = await create(
        ctx,
        uid,
        body,
        typeof params.locale === 'string' ? { locale: params.locale } : {},
      ).catch(async (error: unknown) => {
        // a parallel grant of the same permission stored it first
        const granted = uid === PERMISSION_UID && error instanceof ValidationError ? await grantedAlready(data) : null;
        if (!granted) throw error;
        return { data: granted };
      });
      return created.data ? readOne(uid, created.data.id, params) : null;
    },
    async update(uid, id, { data, ...params }) {
      known(uid);
      await update(ctx, uid, entryId(id), { data }, {});
      return readOne(uid, id, params);
    },
    async delete(uid, id, params = {}) {
      const before = await readOne(uid, id, params);
      if (!before) return null;
      // deleted meanwhile by a parallel request: as if it had not been there
      const removed = await remove(ctx, uid, entryId(id), {}).then(
        () => true,
        (error: unknown) => {
          if (error instanceof NotFoundError) return false;
          throw error;
        },
      );
      return removed ? before : null;
    },
  };
}
