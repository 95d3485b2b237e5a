import type { Connection } from 'mongoose';
import { outsideAmbientTransaction } from '../database/ambient-transaction.js';

interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * Integer ids, as Strapi's, from an atomic counter: one `findOneAndUpdate` with `$inc`, so ids
 * are unique across many service instances sharing one database. Outside an app's
 * `strapi.db.transaction`, as a SQL sequence: other writers do not wait for its commit, and a
 * rollback does not give the ids back.
 */
export class IdCounters {
  constructor(private readonly connection: Connection) {}

  /** Reserves `count` consecutive ids for `key` and returns the first. */
  async next(key: string, count = 1): Promise<number> {
    const counters = this.connection.db!.collection<CounterDoc>('counters');
    const increment = () =>
      outsideAmbientTransaction(() =>
        counters.findOneAndUpdate(
          { _id: key },
          { $inc: { seq: count } },
          // acknowledged before the journal has it: an id is only kept by an entry's write, which
          // waits for the journal (or a majority) and so makes the increment before it durable too;
          // an increment a crash loses gave its ids to nothing acknowledged
          { upsert: true, returnDocument: 'after', writeConcern: { w: 1, j: false } },
        ),
      );
    // two first upserts of one key may race on `_id`: the loser finds the counter on a second try
    const doc = await increment().catch((error: { code?: unknown }) => {
      if (error?.code === 11000) return increment();
      throw error;
    });
    if (!doc) throw new Error(`counter ${key} was not returned`);
    return doc.seq - count + 1;
  }
}

export const componentCounterKey = (componentUid: string) => `component:${componentUid}`;
