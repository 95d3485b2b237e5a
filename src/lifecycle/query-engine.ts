/**
 * `strapi.db.query(uid)` (also `strapi.query(uid)`) of Strapi v4, on the entity service: `where`
 * (the filters language), `select`, `populate`, `orderBy`, `limit`, `offset`; single-entry writes
 * pick the first entry `where` matches.
 */
import type { PlainEntry } from '../query/index.js';
import type { EntityService } from './entity-service.js';

type Params = Record<string, unknown>;

export interface QueryEngine {
  findOne(params?: Params): Promise<PlainEntry | null>;
  findMany(params?: Params): Promise<PlainEntry[]>;
  count(params?: Params): Promise<number>;
  create(params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  update(params: Params & { data: Record<string, unknown> }): Promise<PlainEntry | null>;
  delete(params?: Params): Promise<PlainEntry | null>;
  deleteMany(params?: Params): Promise<{ count: number }>;
}

/** Query Engine parameters → entity service parameters. */
function entityParams(params: Params): Params {
  const { where, select, populate, orderBy, limit, offset } = params;
  const out: Params = {};
  for (const [key, value] of Object.entries({
    filters: where,
    fields: select,
    populate,
    sort: orderBy,
    limit,
    start: offset,
  }))
    if (value !== undefined) out[key] = value;
  return out;
}

export function createQueryEngine(entities: EntityService, uid: string): QueryEngine {
  const findMany = async (params: Params = {}): Promise<PlainEntry[]> => {
    const found = await entities.findMany(uid, entityParams(params));
    return Array.isArray(found) ? found : found ? [found] : [];
  };
  const first = async (params: Params = {}) => (await findMany({ ...params, limit: 1 }))[0] ?? null;
  return {
    findOne: first,
    findMany,
    count: (params = {}) => entities.count(uid, entityParams(params)),
    create: ({ data, ...params }) => entities.create(uid, { ...entityParams(params), data }),
    async update({ data, where, ...params }) {
      const target = await first({ where });
      return target ? entities.update(uid, target.id, { ...entityParams(params), data }) : null;
    },
    async delete(params = {}) {
      const target = await first({ where: params.where });
      return target ? entities.delete(uid, target.id, entityParams(params)) : null;
    },
    async deleteMany(params = {}) {
      const targets = await findMany({ where: params.where });
      for (const target of targets) await entities.delete(uid, target.id);
      return { count: targets.length };
    },
  };
}
