/**
 * The writes' events as Strapi's event hub carries them: `entry.*` with `{ model, uid, entry }`
 * (Strapi's entity service; `entry.publish`/`entry.unpublish` with `{ model, entry }`, as its
 * content manager sends them), `media.*` with `{ media }` (its upload plugin). A write reads what
 * an event carries only when an app listener or a webhook may hear it; the event is emitted
 * without being awaited: a listener that throws is logged, never the write's failure. Inside an
 * app's transaction the listeners join it while it is open and run outside it once it ended.
 */
import type { Registry } from '../content-types/index.js';
import { detachedFromAmbientTransaction } from '../database/ambient-transaction.js';
import type { Logger } from '../logger.js';
import type { ContentEvents, EntryEventName } from '../service-context.js';
import type { ServiceEventHub } from './event-hub.js';
import type { ServiceWebhookRunner } from './webhook-runner.js';

const WITHOUT_UID: ReadonlySet<EntryEventName> = new Set(['entry.publish', 'entry.unpublish']);

export function createContentEvents(
  registry: Registry,
  events: ServiceEventHub,
  webhooks: Pick<ServiceWebhookRunner, 'mayWant'>,
  logger: Logger,
): ContentEvents {
  const heard = (event: string) => events.hears(event) || webhooks.mayWant(event);
  const emit = (event: string, info: Record<string, unknown>) => {
    detachedFromAmbientTransaction(() => events.hub.emit(event, info)).catch((err: unknown) => {
      logger.error(
        { err, event },
        `a listener of ${event} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  };
  return {
    hears: heard,
    entry(event, uid, entry) {
      const model = registry.contentType(uid)?.singularName ?? uid;
      emit(event, WITHOUT_UID.has(event) ? { model, entry } : { model, uid, entry });
    },
    media(event, media) {
      emit(event, { media });
    },
  };
}
