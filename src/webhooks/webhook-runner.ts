/**
 * `strapi.webhookRunner` of Strapi v4: `run(webhook, event, info)` posts
 * `{ event, createdAt, ...info }` to the webhook's url with its headers over `server.webhooks.defaultHeaders`
 * (plus `X-Strapi-Event` and JSON's content type), 10 s at most, and answers `{ statusCode, message? }`,
 * never throwing. Every emitted event is queued and posted to each enabled webhook listening to it,
 * at most 5 events at a time (Strapi's concurrency), after the answer of the write that caused it:
 * a receiver that fails or hangs costs the client nothing; the failure is logged with the webhook's
 * name (not its url, which often carries a secret). Unlike Strapi's, which keeps the webhooks it
 * read at start-up in memory, the runner reads them from the store (again every few seconds, and
 * at once after this service changed one), so every instance of the service sees the same ones.
 */
import { outsideAmbientTransaction } from '../database/ambient-transaction.js';
import type { Logger } from '../logger.js';
import type { Webhook, WebhookCallResult } from './events.js';
import type { WebhookStore } from './webhook-store.js';

export interface WebhookRunner {
  run(webhook: Webhook, event: string, info?: unknown): Promise<WebhookCallResult>;
  /** Strapi's admin calls these after it changed a webhook; here they read the store again */
  add(webhook?: unknown): void;
  update(webhook?: unknown): void;
  remove(webhook?: unknown): void;
}

/** The runner and what only the service asks of it. */
export interface ServiceWebhookRunner {
  runner: WebhookRunner;
  /** queues `event` for the enabled webhooks listening to it (returns at once) */
  enqueue(event: string, info: unknown): void;
  /** false only when the webhooks known now say no webhook listens to `event` */
  mayWant(event: string): boolean;
  /** forget the webhooks read: the next event reads them again */
  refresh(): void;
  /** resolves once nothing is queued or being posted */
  idle(): Promise<void>;
  /** stops queueing; waits for what is queued up to `graceMs`, then cuts the calls still open */
  stop(graceMs?: number): Promise<void>;
}

export interface WebhookRunnerOptions {
  store: Pick<WebhookStore, 'findWebhooks'>;
  logger: Logger;
  /** `server.webhooks.defaultHeaders` */
  defaultHeaders: Readonly<Record<string, string>>;
  concurrency?: number;
  timeoutMs?: number;
  /** events waiting beyond this are dropped (logged) rather than held in memory */
  maxQueued?: number;
  /** how long the webhooks read stay current */
  refreshMs?: number;
  /**
   * follow a receiver's redirects (Strapi does); off in production, where a webhook's url must be
   * public and a redirect could lead elsewhere: the 3xx is the answer
   */
  followRedirects?: boolean;
}

// a receiver's error body is kept up to this many characters in the answer and the log
const MESSAGE_LIMIT = 2_000;

interface QueuedEvent {
  event: string;
  info: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The start of a receiver's answer (a receiver may send much more than anyone reads). */
async function readMessage(response: Response): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  // leaving the loop early cancels the rest of the body
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > MESSAGE_LIMIT) return `${text.slice(0, MESSAGE_LIMIT)}…`;
  }
  return text + decoder.decode();
}

export function createWebhookRunner(options: WebhookRunnerOptions): ServiceWebhookRunner {
  const { store, logger, defaultHeaders } = options;
  const concurrency = options.concurrency ?? 5;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxQueued = options.maxQueued ?? 1_000;
  const refreshMs = options.refreshMs ?? 5_000;
  const stopping = new AbortController();
  const queue: QueuedEvent[] = [];
  let running = 0;
  let stopped = false;
  let dropped = 0;
  let waiters: Array<() => void> = [];

  // the webhooks as last read; `generation` keeps a read that a change overtook from being kept
  let known: { webhooks: Webhook[]; at: number } | undefined;
  let generation = 0;
  const refresh = () => {
    known = undefined;
    generation += 1;
  };
  const current = async (): Promise<Webhook[]> => {
    if (known && Date.now() - known.at < refreshMs) return known.webhooks;
    const readAt = generation;
    const webhooks = await store.findWebhooks();
    if (readAt === generation) known = { webhooks, at: Date.now() };
    return webhooks;
  };
  const listening = (webhook: Webhook, event: string) => webhook.isEnabled === true && webhook.events.includes(event);

  async function run(webhook: Webhook, event: string, info: unknown = {}): Promise<WebhookCallResult> {
    if (!isObject(webhook) || typeof webhook.url !== 'string')
      throw new TypeError('strapi.webhookRunner.run(webhook, event, info): webhook must be one of strapi.webhookStore');
    try {
      const body = JSON.stringify({ event, createdAt: new Date(), ...(isObject(info) ? info : {}) });
      const response = await fetch(webhook.url, {
        method: 'POST',
        body,
        headers: {
          ...defaultHeaders,
          ...(isObject(webhook.headers) ? webhook.headers : {}),
          'X-Strapi-Event': event,
          'Content-Type': 'application/json',
        },
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]),
        redirect: options.followRedirects === false ? 'manual' : 'follow',
      });
      if (response.ok) {
        await response.body?.cancel();
        return { statusCode: response.status };
      }
      return { statusCode: response.status, message: await readMessage(response) };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const message = timedOut
        ? `no answer within ${timeoutMs / 1000} s`
        : err instanceof Error
          ? ((err.cause instanceof Error ? err.cause.message : undefined) ?? err.message)
          : String(err);
      return { statusCode: 500, message };
    }
  }

  async function deliver(webhook: Webhook, event: string, info: unknown): Promise<void> {
    const result = await run(webhook, event, info);
    if (result.statusCode >= 200 && result.statusCode < 300) return;
    logger.error(
      { webhook: { id: webhook.id, name: webhook.name }, event, statusCode: result.statusCode },
      `webhook "${webhook.name}" (id ${webhook.id}) failed for ${event}: ${result.statusCode} ${result.message ?? ''}`.trim(),
    );
  }

  async function work(job: QueuedEvent): Promise<void> {
    try {
      const webhooks = (await current()).filter((webhook) => listening(webhook, job.event));
      await Promise.all(webhooks.map((webhook) => deliver(webhook, job.event, job.info)));
    } catch (err) {
      logger.error({ err, event: job.event }, `webhooks for ${job.event} were not called: ${String(err)}`);
    }
  }

  function next(): void {
    while (running < concurrency && queue.length > 0) {
      const job = queue.shift()!;
      running += 1;
      // delivery belongs to no write's transaction: the webhooks are read as committed
      void outsideAmbientTransaction(() => work(job)).finally(() => {
        running -= 1;
        next();
      });
    }
    if (running === 0 && queue.length === 0) {
      const settled = waiters;
      waiters = [];
      for (const resolve of settled) resolve();
    }
  }

  const idle = () =>
    running === 0 && queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));

  const mayWant = (event: string) =>
    !known || Date.now() - known.at >= refreshMs || known.webhooks.some((webhook) => listening(webhook, event));

  return {
    runner: { run, add: refresh, update: refresh, remove: refresh },
    enqueue(event, info) {
      if (stopped || !mayWant(event)) return;
      if (queue.length >= maxQueued) {
        if (dropped++ === 0)
          logger.error(`webhooks fall behind: more than ${maxQueued} events wait; new ones are dropped`);
        return;
      }
      if (dropped > 0) {
        logger.error(`webhooks: ${dropped} event(s) were dropped while the queue was full`);
        dropped = 0;
      }
      queue.push({ event, info });
      next();
    },
    mayWant,
    refresh,
    idle,
    async stop(graceMs = 5_000) {
      stopped = true;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      });
      await Promise.race([idle(), graceOver]);
      clearTimeout(timer);
      const left = queue.length + running;
      queue.length = 0;
      stopping.abort();
      if (left > 0) logger.warn(`webhooks: ${left} event(s) were not delivered before the service stopped`);
      await idle();
    },
  };
}
