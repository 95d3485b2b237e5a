/**
 * `strapi.db.query('webhook')`: Strapi v4's query engine on its own `webhook` model (collection
 * `strapi_webhooks`, attributes `name`, `url`, `headers`, `events`, `enabled`), which projects
 * read and write in their bootstrap (finding a webhook by name before creating it). Rows are the
 * model's, `{ id, name, url, headers, events, enabled }`, not the store's `isEnabled` webhooks.
 * As Strapi's query engine: `where` in the filters language, `select`, `orderBy`, `limit`,
 * `offset`; writes take the model's attributes from `data` and validate nothing; no lifecycles
 * (the model has none) and no events. Webhooks are few: a read takes them all and filters here.
 */
import type { Connection } from 'mongoose';
import type { ContentType, Registry } from '../content-types/index.js';
import { ValidationError } from '../errors/index.js';
import type { IdCounters } from '../models/index.js';
import { APP_CODE } from '../query/index.js';
import { modelFilterPredicate } from '../query/filters/index.js';
import { WEBHOOKS_COLLECTION, type WebhookDocument } from './webhook-store.js';

type Params = Record<string, unknown>;

export const WEBHOOK_MODEL_UID = 'webhook';

export interface WebhookRow {
  id: number;
  name?: string;
  url?: string;
  headers?: Record<string, string>;
  events?: string[];
  enabled?: boolean;
  [attribute: string]: unknown;
}

interface Page {
  results: WebhookRow[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

export interface WebhookQuery {
  findOne(params?: Params): Promise<WebhookRow | null>;
  findMany(params?: Params): Promise<WebhookRow[]>;
  count(params?: Params): Promise<number>;
  findWithCount(params?: Params): Promise<[WebhookRow[], number]>;
  findPage(params?: Params): Promise<Page>;
  create(params: Params & { data: Record<string, unknown> }): Promise<WebhookRow | null>;
  createMany(params: Params & { data: Array<Record<string, unknown>> }): Promise<{ count: number; ids: number[] }>;
  update(params: Params & { data: Record<string, unknown> }): Promise<WebhookRow | null>;
  updateMany(params: Params & { data: Record<string, unknown> }): Promise<{ count: number }>;
  delete(params?: Params): Promise<WebhookRow | null>;
  deleteMany(params?: Params): Promise<{ count: number }>;
  load(entity: unknown, fields: unknown): Promise<unknown>;
  loadPages(entity: unknown, field: unknown): Promise<Page>;
}

export interface WebhookQueryOptions {
  connection: Connection;
  counters: IdCounters;
  registry: Registry;
  /** told after every write (the runner reads the webhooks again) */
  onChange(): void;
}

const ATTRIBUTES = ['name', 'url', 'headers', 'events', 'enabled'] as const;

/** Strapi's `webhookModel`, as a schema the filters parser reads. */
const WEBHOOK_SCHEMA: ContentType = {
  modelType: 'contentType',
  uid: WEBHOOK_MODEL_UID,
  kind: 'collectionType',
  collectionName: WEBHOOKS_COLLECTION,
  singularName: 'webhook',
  pluralName: 'webhooks',
  displayName: 'Webhook',
  namespace: 'api',
  draftAndPublish: false,
  localized: false,
  attributes: {
    name: { type: 'string' },
    url: { type: 'text' },
    headers: { type: 'json' },
    events: { type: 'json' },
    enabled: { type: 'boolean' },
  },
  relations: {},
  source: "Strapi's webhook model",
  declared: { info: { singularName: 'webhook', pluralName: 'webhooks', displayName: 'Webhook' }, attributes: {} },
};

function toRow(doc: WebhookDocument): WebhookRow {
  const { _id, ...attributes } = doc;
  return { id: _id, ...attributes };
}

/** The model's attributes of `data` (what else a query engine's write gets is not stored, as in Strapi). */
function modelData(data: unknown): Partial<Omit<WebhookDocument, '_id'>> {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ValidationError('strapi.db.query("webhook"): data must be an object', {});
  return Object.fromEntries(
    Object.entries(data).filter(([key]) => (ATTRIBUTES as readonly string[]).includes(key)),
  ) as Partial<Omit<WebhookDocument, '_id'>>;
}

/** `orderBy` as the query engine takes it: `'name'`, `{ name: 'desc' }`, or a list of those. */
function sortOf(orderBy: unknown): Array<[string, 1 | -1]> {
  const items = Array.isArray(orderBy) ? orderBy : orderBy === undefined ? [] : [orderBy];
  return items.flatMap((item): Array<[string, 1 | -1]> => {
    const entries: Array<[string, unknown]> =
      typeof item === 'string'
        ? [[item, 'asc']]
        : typeof item === 'object' && item !== null
          ? Object.entries(item)
          : [];
    return entries.map(([field, direction]) => {
      if (field !== 'id' && !(ATTRIBUTES as readonly string[]).includes(field))
        throw new ValidationError(`strapi.db.query("webhook"): cannot order by "${field}"`, {});
      return [field, String(direction).toLowerCase() === 'desc' ? -1 : 1];
    });
  });
}

function compareRows(sort: Array<[string, 1 | -1]>): (a: WebhookRow, b: WebhookRow) => number {
  return (a, b) => {
    for (const [field, direction] of sort) {
      const left = JSON.stringify(a[field] ?? null);
      const right = JSON.stringify(b[field] ?? null);
      if (left !== right) return (left < right ? -1 : 1) * direction;
    }
    return a.id - b.id;
  };
}

function selected(row: WebhookRow, select: unknown): WebhookRow {
  const fields = typeof select === 'string' ? [select] : Array.isArray(select) ? select : undefined;
  if (!fields) return row;
  return Object.fromEntries(Object.entries(row).filter(([key]) => key === 'id' || fields.includes(key))) as WebhookRow;
}

function nonNegative(value: unknown): number | undefined {
  const number = Number(value);
  return value === undefined || !Number.isFinite(number) ? undefined : Math.max(Math.trunc(number), 0);
}

export function createWebhookQuery(options: WebhookQueryOptions): WebhookQuery {
  const collection = () => options.connection.collection<WebhookDocument>(WEBHOOKS_COLLECTION);
  const matching = async (where: unknown): Promise<WebhookRow[]> => {
    const matches = modelFilterPredicate({
      registry: options.registry,
      schema: WEBHOOK_SCHEMA,
      filters: where,
      access: APP_CODE,
    });
    const docs = await collection()
      .find({}, { sort: { _id: 1 } })
      .toArray();
    return docs.filter((doc) => matches(doc as unknown as Params)).map(toRow);
  };
  const findMany = async (params: Params = {}): Promise<WebhookRow[]> => {
    const rows = (await matching(params.where)).sort(compareRows(sortOf(params.orderBy)));
    const offset = nonNegative(params.offset) ?? 0;
    const limit = nonNegative(params.limit);
    const page = rows.slice(offset, limit === undefined ? undefined : offset + limit);
    return page.map((row) => selected(row, params.select));
  };
  const count = async (params: Params = {}) => (await matching(params.where)).length;
  const create = async (data: unknown): Promise<WebhookRow> => {
    const doc: WebhookDocument = {
      _id: await options.counters.next(WEBHOOKS_COLLECTION),
      ...modelData(data),
    } as WebhookDocument;
    await collection().insertOne(doc);
    options.onChange();
    return toRow(doc);
  };
  const update = async (id: number, data: unknown): Promise<WebhookRow | null> => {
    const set = modelData(data);
    if (Object.keys(set).length === 0) {
      const doc = await collection().findOne({ _id: id });
      return doc ? toRow(doc) : null;
    }
    const doc = await collection().findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
    options.onChange();
    return doc ? toRow(doc) : null;
  };
  const remove = async (id: number): Promise<WebhookRow | null> => {
    const doc = await collection().findOneAndDelete({ _id: id });
    if (doc) options.onChange();
    return doc ? toRow(doc) : null;
  };
  const first = async (params: Params) => (await findMany({ ...params, limit: 1, select: undefined }))[0] ?? null;
  const noRelations = (): never => {
    throw new ValidationError('strapi.db.query("webhook"): the webhook model has no relations to load', {});
  };
  return {
    findOne: async (params = {}) => (await findMany({ ...params, limit: 1 }))[0] ?? null,
    findMany,
    count,
    findWithCount: (params = {}) => Promise.all([findMany(params), count(params)]),
    async findPage({ page = 1, pageSize = 10, ...params } = {}) {
      const size = Math.max(Number(pageSize) || 10, 1);
      const at = Math.max(Number(page) || 1, 1);
      const [results, total] = await Promise.all([
        findMany({ ...params, limit: size, offset: (at - 1) * size }),
        count(params),
      ]);
      return { results, pagination: { page: at, pageSize: size, pageCount: Math.ceil(total / size), total } };
    },
    create: ({ data }) => create(data),
    async createMany({ data }) {
      const ids: number[] = [];
      for (const item of Array.isArray(data) ? data : []) ids.push((await create(item)).id);
      return { count: ids.length, ids };
    },
    async update({ where, data }) {
      const target = await first({ where });
      return target ? update(target.id, data) : null;
    },
    async updateMany({ where, data }) {
      const targets = await matching(where);
      for (const target of targets) await update(target.id, data);
      return { count: targets.length };
    },
    async delete(params = {}) {
      const target = await first({ where: params.where });
      return target ? remove(target.id) : null;
    },
    async deleteMany(params = {}) {
      const targets = await matching(params.where);
      for (const target of targets) await remove(target.id);
      return { count: targets.length };
    },
    load: async () => noRelations(),
    loadPages: async () => noRelations(),
  };
}
