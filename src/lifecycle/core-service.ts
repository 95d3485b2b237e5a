/**
 * The core service of a content-type, as Strapi v4's `createCoreService` makes it (what
 * `strapi.service('api::<api>.<name>')` gives, and the prototype of an app's own service). Reads
 * apply the REST defaults (page size, `publicationState: 'live'`); `create` publishes unless
 * `publishedAt` says otherwise; entries are flat, as the entity service's. Params a controller's
 * `sanitizeQuery` made carry the caller's access (caller-access.ts): such a read sees only what
 * the caller may read, however the app's code changes the params on the way.
 */
import { ValidationError } from '../errors/index.js';
import { UNRESTRICTED, readEntries, readEntry, type PlainEntry } from '../query/index.js';
import type { ServiceContext } from '../service-context.js';
import { accessOf } from './caller-access.js';
import type { EntityService } from './entity-service.js';
import { UnsupportedStrapiApi } from './unsupported.js';

type Params = Record<string, unknown>;
type WriteParams = Params & { data: Record<string, unknown> };

export interface CollectionTypeService {
  getFetchParams(params?: Params): Params;
  find(params?: Params): Promise<{ results: PlainEntry[]; pagination: Record<string, number> }>;
  findOne(id: number | string, params?: Params): Promise<PlainEntry | null>;
  create(params: WriteParams): Promise<PlainEntry | null>;
  update(id: number | string, params: WriteParams): Promise<PlainEntry | null>;
  delete(id: number | string, params?: Params): Promise<PlainEntry | null>;
}

export interface SingleTypeService {
  getFetchParams(params?: Params): Params;
  find(params?: Params): Promise<PlainEntry | null>;
  createOrUpdate(params: WriteParams): Promise<PlainEntry | null>;
  delete(params?: Params): Promise<PlainEntry | null | undefined>;
}

export type CoreService = CollectionTypeService | SingleTypeService;

/** The core service's default read params: published entries only, unless the params say otherwise. */
export const getFetchParams = (params: Params = {}): Params => ({ publicationState: 'live', ...params });

const ENTRY_ID = /^[1-9]\d{0,14}$/;

export function createCoreService(service: ServiceContext, entities: EntityService, uid: string): CoreService {
  const contentType = service.registry.contentType(uid);
  if (!contentType)
    throw new UnsupportedStrapiApi(`the core service of "${uid}"`, 'it is not a content-type of this app');
  const published = (data: Record<string, unknown>) =>
    contentType.draftAndPublish ? { publishedAt: new Date(), ...data } : data;
  const readContext = (params: Params) => ({ ...service, access: accessOf(params) ?? UNRESTRICTED });

  if (contentType.kind === 'singleType') {
    const single: SingleTypeService = {
      getFetchParams,
      find: (params = {}) =>
        accessOf(params)
          ? readEntry(readContext(params), uid, {}, getFetchParams(params), {
              style: 'plain',
              lifecycles: service.lifecycles,
            })
          : (entities.findMany(uid, getFetchParams(params)) as Promise<PlainEntry | null>),
      async createOrUpdate({ data, ...params }) {
        const entry = await single.find({ ...params, publicationState: 'preview' });
        if (entry) return entities.update(uid, entry.id, { ...params, data });
        if ((await entities.count(uid)) >= 1) throw new ValidationError('singleType.alreadyExists');
        return entities.create(uid, { ...params, data: published(data) });
      },
      async delete(params = {}) {
        const entry = await single.find(params);
        return entry ? entities.delete(uid, entry.id) : undefined;
      },
    };
    return single;
  }
  return {
    getFetchParams,
    async find(params = {}) {
      const { entries, pagination } = await readEntries(readContext(params), uid, getFetchParams(params), {
        style: 'plain',
        lifecycles: service.lifecycles,
      });
      return { results: entries, pagination };
    },
    findOne(id, params = {}) {
      if (!accessOf(params)) return entities.findOne(uid, id, getFetchParams(params));
      if (!ENTRY_ID.test(String(id))) return Promise.resolve(null);
      return readEntry(readContext(params), uid, { _id: Number(id) }, getFetchParams(params), {
        style: 'plain',
        lifecycles: service.lifecycles,
        where: { id },
      });
    },
    create: ({ data, ...params }) => entities.create(uid, { ...params, data: published(data) }),
    update: (id, params) => entities.update(uid, id, params),
    delete: (id, params) => entities.delete(uid, id, params),
  };
}
