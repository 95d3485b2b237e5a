// Strapi v4's webhooks: the event hub the writes emit on, the store, the runner and the admin API.
import type { Router } from 'express';
import type { ContentEvents, ServiceContext } from '../service-context.js';
import { webhookAdminRoutes } from './admin-routes.js';
import { createContentEvents } from './content-events.js';
import { createEventHub, type EventHub } from './event-hub.js';
import { ENTRY_EVENTS, MEDIA_EVENTS } from './events.js';
import { createWebhookRunner, type WebhookRunner } from './webhook-runner.js';
import { createWebhookQuery, type WebhookQuery } from './webhook-query.js';
import { createWebhookStore, type WebhookStore } from './webhook-store.js';
import { webhooksConfig } from './webhooks-config.js';

export type { EventHub } from './event-hub.js';
export type { Webhook, WebhookCallResult } from './events.js';
export type { WebhookStore } from './webhook-store.js';
export { WEBHOOK_MODEL_UID, type WebhookQuery } from './webhook-query.js';
export { WEBHOOKS_COLLECTION, type WebhookDocument } from './webhook-store.js';

/** `strapi.webhookRunner`: plugins emit through its `eventHub` (strapi-plugin-navigation does). */
export type StrapiWebhookRunner = WebhookRunner & { readonly eventHub: EventHub };

export interface Webhooks {
  eventHub: EventHub;
  store: WebhookStore;
  /** `strapi.db.query('webhook')` */
  query: WebhookQuery;
  runner: StrapiWebhookRunner;
  /** what the writes emit on (ServiceContext.events) */
  events: ContentEvents;
  /** `/webhooks...` of Strapi's admin API, to mount under `/admin` */
  adminRoutes: Router;
  /** resolves once every queued event was posted (tests) */
  idle(): Promise<void>;
  /** stops taking events; what is queued gets a few seconds */
  stop(): Promise<void>;
}

export interface WebhooksOptions {
  /** the upload plugin is on: its media events may be listened to */
  media: boolean;
}

export function createWebhooks(
  context: Pick<ServiceContext, 'config' | 'connection' | 'models' | 'registry' | 'logger' | 'authenticate'>,
  options: WebhooksOptions,
): Webhooks {
  const { config, logger } = context;
  const { defaultHeaders } = webhooksConfig(config);
  const production = config.env === 'production';
  // the store tells the runner of its changes; the runner reads the store
  let changed = () => {};
  const store = createWebhookStore({
    connection: context.connection,
    counters: context.models.counters,
    publicUrlsOnly: production,
    onChange: () => changed(),
  });
  for (const [key, value] of Object.entries({ ...ENTRY_EVENTS, ...(options.media ? MEDIA_EVENTS : {}) }))
    store.addAllowedEvent(key, value);
  const delivery = createWebhookRunner({
    store,
    logger,
    defaultHeaders,
    followRedirects: !production,
  });
  changed = delivery.refresh;
  const hub = createEventHub((event, info) => delivery.enqueue(event, info));
  return {
    eventHub: hub.hub,
    store,
    query: createWebhookQuery({
      connection: context.connection,
      counters: context.models.counters,
      registry: context.registry,
      onChange: () => changed(),
    }),
    runner: { ...delivery.runner, eventHub: hub.hub },
    events: createContentEvents(context.registry, hub, delivery, logger),
    adminRoutes: webhookAdminRoutes({ store, runner: delivery.runner, authenticate: context.authenticate }),
    idle: () => delivery.idle(),
    stop: () => delivery.stop(),
  };
}
