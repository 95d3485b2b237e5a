// Runs again the settling steps of writes whose service stopped between their commit and those
// steps (pending-settles.ts): at start-up every record, then every minute those older than a
// minute (an instance that died while others run on; a living writer forgets its records within
// a second). Each step is idempotent, so one a living writer runs too does no harm.
import type { Registry } from '../content-types/index.js';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import { settleClaims } from './claims.js';
import { verifyReferences } from './integrity.js';
import { ensureSettleRecords, settleRecords, type SettleSteps } from './pending-settles.js';
import { removeReferences } from './references.js';

export const SETTLE_RECOVERY_MS = 60_000;

/** Runs a write's settling steps: its claims settle, its references are verified, a deleted entry's sweep. */
export async function runSettleSteps(models: Models, registry: Registry, steps: SettleSteps): Promise<void> {
  if (steps.claims && steps.claims.length > 0) await settleClaims(models, steps.claims);
  const { verify, sweep } = steps;
  if (verify)
    await verifyReferences(
      models,
      registry,
      verify.uid,
      verify.id,
      new Map(verify.targets.map(([uid, ids]) => [uid, new Set(ids)])),
      verify.linkedFromOthers,
    );
  if (sweep) await removeReferences(models, registry, sweep.uid, sweep.id);
}

/** Runs the recorded steps older than `olderThanMs`, and forgets each that ran; answers how many ran. */
export async function settleRecorded(
  models: Models,
  registry: Registry,
  olderThanMs: number,
  logger: Logger,
): Promise<number> {
  const records = settleRecords(models);
  const cutoff = new Date(Date.now() - olderThanMs);
  let settled = 0;
  for await (const record of records.find({ at: { $lte: cutoff } })) {
    try {
      await runSettleSteps(models, registry, record);
      await records.deleteOne({ _id: record._id });
      settled++;
    } catch (error) {
      logger.error({ err: error, settle: record._id }, 'a committed write could not be settled; it is tried again');
    }
  }
  if (settled > 0)
    logger.warn(
      `settled ${settled} committed write(s) whose service stopped before settling them (claims, references)`,
    );
  return settled;
}

/** Settles what is recorded now, then every minute what is older than a minute; `stop()` ends it. */
export async function startSettleRecovery(
  models: Models,
  registry: Registry,
  logger: Logger,
): Promise<{ stop(): Promise<void> }> {
  await ensureSettleRecords(models);
  let running: Promise<unknown> | undefined;
  const run = (olderThanMs: number) =>
    (running ??= settleRecorded(models, registry, olderThanMs, logger)
      .catch((error: unknown) => logger.error({ err: error }, 'settling recorded writes failed'))
      .finally(() => {
        running = undefined;
      }));
  await run(0);
  const timer = setInterval(() => void run(SETTLE_RECOVERY_MS), SETTLE_RECOVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
