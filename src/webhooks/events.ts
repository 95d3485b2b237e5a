/** Strapi v4's webhook events (`strapi.webhookStore.allowedEvents`: key → event name). */
export const ENTRY_EVENTS = {
  ENTRY_CREATE: 'entry.create',
  ENTRY_UPDATE: 'entry.update',
  ENTRY_DELETE: 'entry.delete',
  // registered by Strapi's content manager, which is always there
  ENTRY_PUBLISH: 'entry.publish',
  ENTRY_UNPUBLISH: 'entry.unpublish',
} as const;

/** Registered by the upload plugin when it is on. */
export const MEDIA_EVENTS = {
  MEDIA_CREATE: 'media.create',
  MEDIA_UPDATE: 'media.update',
  MEDIA_DELETE: 'media.delete',
} as const;

/** A webhook as Strapi's store answers it. */
export interface Webhook {
  id: number;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}

/** What the webhook runner answers for one call (Strapi's shape): the receiver's status, its body when not 2xx. */
export interface WebhookCallResult {
  statusCode: number;
  message?: string;
}
