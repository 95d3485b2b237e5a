// A write's settling steps run after its commit (claims.ts: older owners of an exclusive target
// released; integrity.ts: links to entries deleted meanwhile removed; references.ts: a delete's
// second sweep). A service that died between the commit and those steps would leave, for good, a
// target with two owners or an id pointing at a deleted entry (when a concurrent request raced it).
// So a write with such steps records them in its own transaction, one document of
// `content_service_settles`, and forgets them once they ran (several at a time, in the background).
// What a stopped service left recorded is run again by settle-recovery.ts: each step is
// idempotent, so a step run twice is harmless.
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { outsideAmbientTransaction } from '../database/ambient-transaction.js';
import type { Models } from '../models/index.js';
import type { Claim } from './claims.js';
import type { WriteScope } from './scope.js';

export const SETTLES = 'content_service_settles';

/** What a committed write still has to run. */
export interface SettleSteps {
  claims?: Claim[];
  /** integrity.ts `verifyReferences` of the written entry */
  verify?: { uid: string; id: number; targets: Array<[string, number[]]>; linkedFromOthers: boolean };
  /** a deleted entry: every stored id pointing at it goes */
  sweep?: { uid: string; id: number };
}

export interface SettleRecord extends SettleSteps {
  _id: string;
  /** when the write recorded it */
  at: Date;
}

export function settleRecords(models: Models): Collection<SettleRecord> {
  return models.db().collection<SettleRecord>(SETTLES);
}

/**
 * Creates the collection before any transaction writes to it: MongoDB creates a collection inside
 * a transaction only from 4.4 on, and two transactions creating it at once conflict.
 */
export async function ensureSettleRecords(models: Models): Promise<void> {
  const db = models.db();
  if (await db.listCollections({ name: SETTLES }, { nameOnly: true }).hasNext()) return;
  await db.createCollection(SETTLES).catch((error: { code?: number }) => {
    // created meanwhile by another instance
    if (error.code !== 48) throw error;
  });
}

/**
 * Records `steps` in the write's transaction; its id, to forget once they ran. Nothing without a
 * transaction: a record written beside the write could outlive a write that failed, and releasing
 * claims for a link never written would leave its target with no owner.
 */
export async function recordSettle(models: Models, scope: WriteScope, steps: SettleSteps): Promise<string | undefined> {
  if (!scope.session) return undefined;
  const _id = randomUUID();
  await settleRecords(models).insertOne({ _id, at: new Date(), ...steps }, { session: scope.session });
  return _id;
}

interface Forgetting {
  ids: string[];
  flushing?: Promise<void>;
}
const forgetting = new WeakMap<Models, Forgetting>();
const FORGET_AFTER_MS = 200;

/** The record `id` ran: it goes with the others of the next 200 ms, in one command. */
export function forgetSettled(models: Models, id: string | undefined): void {
  if (id === undefined) return;
  let batch = forgetting.get(models);
  if (!batch) forgetting.set(models, (batch = { ids: [] }));
  batch.ids.push(id);
  const current = batch;
  current.flushing ??= outsideAmbientTransaction(async () => {
    await new Promise((resolve) => setTimeout(resolve, FORGET_AFTER_MS).unref());
    await flush(models, current);
  });
}

async function flush(models: Models, batch: Forgetting): Promise<void> {
  const ids = batch.ids.splice(0);
  batch.flushing = undefined;
  // left behind if this fails: run again later, which is harmless
  if (ids.length > 0)
    await settleRecords(models)
      .deleteMany({ _id: { $in: ids } })
      .catch(() => undefined);
}

/** Forgets at once what ran (before the database closes). */
export async function flushSettled(models: Models): Promise<void> {
  const batch = forgetting.get(models);
  if (batch) await flush(models, batch);
}
