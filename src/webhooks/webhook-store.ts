/**
 * `strapi.webhookStore` of Strapi v4: the webhooks, kept in Strapi's collection `strapi_webhooks`
 * (`{ _id, name, url, headers, events, enabled }`, integer ids from the service's counters), and
 * the events a webhook may listen to. Method names and answers are Strapi's: a webhook is
 * `{ id, name, url, headers, events, isEnabled }`; a missing one is null.
 */
import type { Connection } from 'mongoose';
import { ValidationError } from '../errors/index.js';
import type { IdCounters } from '../models/index.js';
import type { Webhook } from './events.js';
import { NOT_PUBLIC_MESSAGE, isPublicUrl } from './public-url.js';
import { checkWebhookCreate, checkWebhookUpdate } from './webhook-input.js';

export const WEBHOOKS_COLLECTION = 'strapi_webhooks';

export interface WebhookDocument {
  _id: number;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  enabled: boolean;
}

export interface WebhookStore {
  /** event key (`ENTRY_CREATE`) → event name (`entry.create`) */
  readonly allowedEvents: Map<string, string>;
  addAllowedEvent(key: string, value: string): void;
  removeAllowedEvent(key: string): void;
  /** the keys */
  listAllowedEvents(): string[];
  getAllowedEvent(key: string): string | undefined;
  findWebhooks(): Promise<Webhook[]>;
  findWebhook(id: unknown): Promise<Webhook | null>;
  /** a new webhook is enabled, as in Strapi */
  createWebhook(data: unknown): Promise<Webhook>;
  /** `data` over the stored webhook (`isEnabled` turns it on or off); null when there is none */
  updateWebhook(id: unknown, data: unknown): Promise<Webhook | null>;
  deleteWebhook(id: unknown): Promise<Webhook | null>;
}

export interface WebhookStoreOptions {
  connection: Connection;
  counters: IdCounters;
  /** refuse urls that are not public (Strapi does in production) */
  publicUrlsOnly: boolean;
  /** told after every change (the runner reads the webhooks again) */
  onChange(): void;
}

function fromDocument(doc: WebhookDocument): Webhook {
  return {
    id: doc._id,
    name: doc.name,
    url: doc.url,
    headers: doc.headers ?? {},
    events: doc.events ?? [],
    isEnabled: doc.enabled,
  };
}

/** An id as Strapi's `where: { id }` matches it: a positive integer, or its digits. */
function storedId(id: unknown): number | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  return typeof id === 'string' && /^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined;
}

function known(data: unknown, keys: readonly string[]): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([key]) => keys.includes(key)));
}

export function createWebhookStore(options: WebhookStoreOptions): WebhookStore {
  const collection = () => options.connection.collection<WebhookDocument>(WEBHOOKS_COLLECTION);
  const allowedEvents = new Map<string, string>();

  /** Strapi's check of the events, then (in production) that the url leads outside. */
  const checkTarget = async (events: string[], url: string) => {
    const allowed = [...allowedEvents.values()];
    for (const event of events)
      if (!allowed.includes(event)) throw new ValidationError(`Webhook event ${event} is not supported`);
    if (options.publicUrlsOnly && !(await isPublicUrl(url))) throw ValidationError.forPath(['url'], NOT_PUBLIC_MESSAGE);
  };

  const store: WebhookStore = {
    allowedEvents,
    addAllowedEvent: (key, value) => void allowedEvents.set(key, value),
    removeAllowedEvent: (key) => void allowedEvents.delete(key),
    listAllowedEvents: () => [...allowedEvents.keys()],
    getAllowedEvent: (key) => allowedEvents.get(key),
    async findWebhooks() {
      const docs = await collection()
        .find({}, { sort: { _id: 1 } })
        .toArray();
      return docs.map(fromDocument);
    },
    async findWebhook(id) {
      const _id = storedId(id);
      const doc = _id === undefined ? null : await collection().findOne({ _id });
      return doc ? fromDocument(doc) : null;
    },
    async createWebhook(data) {
      const input = checkWebhookCreate(known(data, ['name', 'url', 'headers', 'events']));
      await checkTarget(input.events, input.url);
      const doc: WebhookDocument = {
        _id: await options.counters.next(WEBHOOKS_COLLECTION),
        name: input.name,
        url: input.url,
        headers: input.headers,
        events: input.events,
        enabled: true,
      };
      await collection().insertOne(doc);
      options.onChange();
      return fromDocument(doc);
    },
    async updateWebhook(id, data) {
      const current = await store.findWebhook(id);
      if (!current) return null;
      const { id: _id, ...stored } = current;
      const input = checkWebhookUpdate({
        ...stored,
        ...known(data, ['name', 'url', 'headers', 'events', 'isEnabled']),
      });
      await checkTarget(input.events, input.url);
      const set = {
        name: input.name,
        url: input.url,
        headers: input.headers,
        events: input.events,
        enabled: input.isEnabled ?? current.isEnabled,
      };
      const doc = await collection().findOneAndUpdate({ _id: current.id }, { $set: set }, { returnDocument: 'after' });
      options.onChange();
      return doc ? fromDocument(doc) : null;
    },
    async deleteWebhook(id) {
      const _id = storedId(id);
      const doc = _id === undefined ? null : await collection().findOneAndDelete({ _id });
      if (doc) options.onChange();
      return doc ? fromDocument(doc) : null;
    },
  };
  return store;
}
