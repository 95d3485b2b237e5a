/**
 * The upload plugin's background upkeep of one running service: replacements a stopped service
 * committed but did not finish (any provider), then bytes no record names (local storage). Once at
 * start-up (awaited, so the service answers from settled files), then every `sweep.intervalMs`;
 * runs never overlap, and a failure is logged, not thrown.
 */
import type { ServiceContext } from '../../service-context.js';
import type { UploadRuntime } from './files.js';
import { sweepUnrecorded } from './leftover-sweep.js';
import { settlePendingReplacements } from './replace-file.js';

export interface Sweeps {
  /** no further run starts; resolves when the one under way has ended */
  stop(): Promise<void>;
}

export async function startSweeps(ctx: ServiceContext, rt: UploadRuntime): Promise<Sweeps> {
  const { sweep } = rt.settings;
  if (!sweep) return { stop: async () => {} };
  const once = async () => {
    await settlePendingReplacements(ctx.models, rt, ctx.logger);
    if (rt.provider.name === 'local')
      await sweepUnrecorded(ctx.models, rt.settings.directory, sweep.graceMs, ctx.logger);
  };
  let running: Promise<void> | undefined;
  const run = (): Promise<void> =>
    (running ??= once()
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'upload: the sweep of stored files failed'))
      .finally(() => {
        running = undefined;
      }));
  await run();
  const timer = setInterval(() => void run(), sweep.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
