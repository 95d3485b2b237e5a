// The credentials epoch: one counter document every service instance sharing the database moves
// (`$inc`) after a change of what the credential caches hold (API tokens, roles, permissions), and
// reads every `pollMs` (one findOne on `_id`, on a client of its own so the service's command
// monitors never see it). A cached credential serves only while no change was seen since it was
// read: a change made on any instance is refused everywhere within one poll, on the instance that
// made it at once. Polls that fail for `staleAfterMs` turn the caches off (every request reads its
// credentials, as Strapi does) until a poll answers again. An entry older than `maxAgeMs` is read
// again, so what a write made around the service (a driver of its own, a database tool) changed
// is seen within that time too. A request pays one comparison (`serves`), no clock read.
import { MongoClient, type Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import { ambientTransaction, type AmbientTransaction } from './ambient-transaction.js';
import type { Logger } from '../logger.js';

/** How often a bump that fails is tried, the waits between growing by `BUMP_RETRY_MS`. */
const BUMP_ATTEMPTS = 3;
const BUMP_RETRY_MS = 50;

/** The epoch's document, in the id counters' collection (a reserved name). */
const EPOCH_COLLECTION = 'counters';
const EPOCH_ID = 'credentials-epoch';

interface EpochDoc {
  _id: string;
  seq: number;
}

export interface CredentialsEpochOptions {
  /** how often the shared epoch is read (env CREDENTIALS_POLL_MS) */
  pollMs: number;
  /** without a poll answered for this long, cached credentials are not served */
  staleAfterMs: number;
  /** the longest a cached credential serves */
  maxAgeMs: number;
}

/**
 * The options for a poll every `pollMs`: ten polls missed (never less than a second: a loaded
 * machine answers late, not wrongly) turn the caches off; entries serve 2 s at most.
 */
export function credentialsEpochOptions(pollMs: number): CredentialsEpochOptions {
  const staleAfterMs = Math.max(1000, 10 * pollMs);
  return { pollMs, staleAfterMs, maxAgeMs: Math.max(2000, staleAfterMs) };
}

export class CredentialsEpoch {
  /**
   * The stamp a cache entry read now is kept with (taken before the read, so a value read across
   * a change is never served). Undefined while the shared epoch is not known: nothing is kept.
   */
  stamp: number | undefined;
  /** moves on every poll tick and every change seen */
  private clock = 1;
  /** entries stamped before this do not serve (a change seen since, or too old) */
  private validFrom = 1;
  /** when each recent clock value began, oldest first (the last `maxAgeMs`) */
  private readonly clockStarts: { clock: number; at: number }[] = [];
  /** the newest shared epoch seen (it only grows) */
  private shared = -1;
  private lastAnsweredPollSentAt = 0;
  private polling: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly cachedUids = new Set<string>();
  /** the app transactions whose commit moves the epoch already */
  private readonly bumpAfter = new WeakSet<AmbientTransaction>();

  private constructor(
    private readonly service: Connection,
    private readonly pollClient: MongoClient,
    private readonly options: CredentialsEpochOptions,
    private readonly logger: Logger,
  ) {
    this.clockStarts.push({ clock: this.clock, at: Date.now() });
    this.timer = setInterval(this.tick, options.pollMs);
    this.timer.unref();
  }

  /** Starts polling the epoch of the database at `uri` (the service's `connection` writes it); the first poll is awaited. */
  static async start(
    uri: string,
    service: Connection,
    options: CredentialsEpochOptions,
    logger: Logger,
  ): Promise<CredentialsEpoch> {
    const pollClient = new MongoClient(uri, {
      maxPoolSize: 1,
      serverSelectionTimeoutMS: options.staleAfterMs,
      socketTimeoutMS: Math.max(5000, options.staleAfterMs),
    });
    const epoch = new CredentialsEpoch(service, pollClient, options, logger);
    await epoch.poll();
    return epoch;
  }

  /** Whether an entry kept with `stamp` may serve now: the only check on a request's path. */
  serves(stamp: number): boolean {
    return stamp >= this.validFrom && this.stamp !== undefined;
  }

  /** Writes of these content-types (by any code path) move the epoch (`afterWriteOf`). */
  cacheContentsOf(uids: readonly string[]): void {
    for (const uid of uids) this.cachedUids.add(uid);
  }

  /** After a write of `uid`: moves the epoch when the caches hold what `uid` stores. */
  async afterWriteOf(uid: string): Promise<void> {
    if (this.cachedUids.has(uid)) await this.changed();
  }

  /**
   * After a change of what the caches hold, before it is answered: this instance's entries stop
   * serving at once, the others' at their next poll. Inside an app's `strapi.db.transaction` the
   * shared epoch moves after its commit (before then other instances would read the old values
   * again under the new epoch).
   */
  async changed(): Promise<void> {
    this.invalidate();
    // without a session (a database without transactions) the change is written already, whatever `cb` does next
    const transaction = ambientTransaction();
    if (!transaction?.open || !transaction.session) return this.bumpShared();
    // one move tells every change the transaction commits
    if (this.bumpAfter.has(transaction)) return;
    this.bumpAfter.add(transaction);
    transaction.afterCommit.push(() => this.bumpShared());
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await this.pollClient.close();
  }

  private epochs(client: MongoClient): Collection<EpochDoc> {
    return client.db().collection<EpochDoc>(EPOCH_COLLECTION);
  }

  /**
   * Moves the shared epoch, tried `BUMP_ATTEMPTS` times. The change it tells of is written already,
   * and this instance's caches dropped it: so a bump that keeps failing is logged, not thrown (a
   * 500 would tell the client a change failed that happened, and undo nothing); the other
   * instances' entries stop serving with age (`maxAgeMs`), or at once if their polls fail too.
   */
  private async bumpShared(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.bumpOnce();
      } catch (error) {
        if (attempt >= BUMP_ATTEMPTS) {
          this.logger.error(
            { err: error },
            `the credentials epoch could not be moved after a change of tokens, roles or permissions: other instances may serve what they cached for up to ${this.options.maxAgeMs} ms`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, BUMP_RETRY_MS * attempt));
      }
    }
  }

  private async bumpOnce(): Promise<void> {
    const collection = this.epochs(this.service.getClient());
    const bump = () =>
      collection.findOneAndUpdate(
        { _id: EPOCH_ID },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after', projection: { seq: 1 } },
      );
    // two first bumps may race on `_id`: the loser increments the document the winner made
    const doc = await bump().catch((error: { code?: unknown }) => {
      if (error?.code === 11000) return bump();
      throw error;
    });
    // what this instance read between the change and its commit (an app's transaction) goes too,
    // and with it whatever other instances changed before this bump: the poll need not drop it again
    this.invalidate();
    if (doc) this.shared = Math.max(this.shared, doc.seq);
  }

  private advance(now: number): void {
    this.clock++;
    this.clockStarts.push({ clock: this.clock, at: now });
    if (this.stamp !== undefined) this.stamp = this.clock;
  }

  private invalidate(): void {
    this.advance(Date.now());
    this.validFrom = this.clock;
  }

  private readonly tick = (): void => {
    this.polling ??= this.poll().finally(() => {
      this.polling = undefined;
    });
    const now = Date.now();
    this.advance(now);
    const starts = this.clockStarts;
    while (starts.length > 1 && starts[0]!.at <= now - this.options.maxAgeMs) starts.shift();
    this.validFrom = Math.max(this.validFrom, starts[0]!.clock);
    if (this.stamp !== undefined && now - this.lastAnsweredPollSentAt > this.options.staleAfterMs) {
      this.stamp = undefined;
      this.logger.warn(
        `the credentials epoch was not read for ${this.options.staleAfterMs} ms: API tokens and roles are read on every request until it is`,
      );
    }
  };

  private async poll(): Promise<void> {
    const sentAt = Date.now();
    let seq: number;
    try {
      const doc = await this.epochs(this.pollClient).findOne({ _id: EPOCH_ID });
      seq = doc?.seq ?? 0;
      // a value written around the service: no epoch can be told from it (as a poll unanswered)
      if (typeof seq !== 'number') throw new TypeError(`the credentials epoch is not a number: ${String(seq)}`);
    } catch (error) {
      if (this.stamp !== undefined) this.logger.warn({ err: error }, 'reading the credentials epoch failed');
      return;
    }
    // an answer tells the epoch as of its sending, not later
    this.lastAnsweredPollSentAt = Math.max(this.lastAnsweredPollSentAt, sentAt);
    // not newer than what was seen (a poll sent before this instance's own bump answers the older value)
    if (seq <= this.shared && this.stamp !== undefined) return;
    if (Date.now() - this.lastAnsweredPollSentAt > this.options.staleAfterMs) return;
    this.shared = Math.max(this.shared, seq);
    this.stamp = this.clock;
    this.invalidate();
  }
}
