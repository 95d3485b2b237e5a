import type { ContentType } from '../content-types/index.js';
import { readEntry } from '../query/index.js';
import type { EntryEventName } from '../service-context.js';
import type { OperationContext, RawQuery } from './context.js';

/**
 * Emits a write's events on Strapi's event hub (the app's listeners and the webhooks hear them).
 * Each carries the entry as Strapi's entity service gives it: flat, every attribute the caller may
 * read (private ones never), and the relations the request populated. The entry is read once, only
 * when someone listens (a delete's before the entry goes), and a failure to read it is logged, never
 * the write's. Answers what emits them.
 */
export async function prepareEntryEvents(
  ctx: OperationContext,
  uid: string,
  id: number,
  query: RawQuery,
  events: readonly EntryEventName[],
): Promise<() => void> {
  const hub = ctx.events;
  const heard = hub ? events.filter((event) => hub.hears(event)) : [];
  if (!hub || heard.length === 0) return () => {};
  const entry = await readEntry(
    ctx,
    uid,
    { _id: id },
    { populate: query.populate, publicationState: 'preview' },
    { style: 'plain' },
  ).catch((err: unknown) => {
    ctx.logger.error({ err }, `${heard.join(', ')} of ${uid} ${id} not emitted: ${String(err)}`);
    return null;
  });
  return () => {
    if (entry) for (const event of heard) hub.entry(event, uid, entry);
  };
}

/**
 * `entry.publish` / `entry.unpublish` when a write changed whether the entry is published:
 * Strapi's content manager emits them after its update; here a content-API write that publishes or
 * unpublishes is that act, and a create that stores a published entry publishes it.
 */
export function publicationEvents(contentType: ContentType, was: boolean, is: boolean): EntryEventName[] {
  if (!contentType.draftAndPublish || was === is) return [];
  return [is ? 'entry.publish' : 'entry.unpublish'];
}

/** Whether `data` publishes (`true`), unpublishes (`false`) or leaves the publication as it is (undefined). */
export function requestedPublication(data: Record<string, unknown>): boolean | undefined {
  return data.publishedAt === undefined ? undefined : data.publishedAt !== null;
}
