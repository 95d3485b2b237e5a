/**
 * `strapi.service('api::<api>.<name>')` of Strapi v4: the core service of a content-type (its
 * default methods; an app's own methods in src/api/../services are not loaded). Reads apply the
 * REST defaults (page size, `publicationState: 'live'`); `create` publishes unless `publishedAt`
 * says otherwise; entries are flat, as the entity service's.
 */
import { UNRESTRICTED, readEntries, type PlainEntry } from '../query/index.js';
import type { ServiceContext } from '../service-context.js';
import type { EntityService } from './entity-service.js';

type Params = Record<string, unknown>;

export interface CoreService {
  find(params?: Params): Promise<{ results: PlainEntry[]; pagination: Record<string, number> } | PlainEntry | null>;
  findOne(id: number | string, params?: Params): Promise<PlainEntry | null>;
  create(params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  update(id: number | string, params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  delete(id: number | string, params?: Params): Promise<PlainEntry | null>;
}

export function createCoreService(service: ServiceContext, entities: EntityService, uid: string): CoreService {
  const live = (params: Params): Params => ({ publicationState: 'live', ...params });
  const contentType = service.registry.contentType(uid);
  return {
    async find(params = {}) {
      if (contentType?.kind === 'singleType') return entities.findMany(uid, live(params)) as Promise<PlainEntry | null>;
      const { entries, pagination } = await readEntries({ ...service, access: UNRESTRICTED }, uid, live(params), {
        style: 'plain',
      });
      return { results: entries, pagination };
    },
    findOne: (id, params = {}) => entities.findOne(uid, id, live(params)),
    create: ({ data, ...params }) =>
      entities.create(uid, {
        ...params,
        data: contentType?.draftAndPublish ? { publishedAt: new Date(), ...data } : data,
      }),
    update: (id, params) => entities.update(uid, id, params),
    delete: (id, params) => entities.delete(uid, id, params),
  };
}
