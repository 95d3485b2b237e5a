import { join } from 'node:path';
import { ConfigError, importAppModule, missingModuleMessage } from '../config/index.js';
import { findLifecycleFile } from './find-file.js';
import type { StrapiApp } from './strapi-app.js';
import { withStrapiFactories } from './strapi-factories.js';

const PHASES = ['register', 'bootstrap', 'destroy'] as const;
type Phase = (typeof PHASES)[number];
type PhaseFunction = (args: { strapi: StrapiApp }) => unknown;

/** The app's lifecycle functions, each run once with `{ strapi }`; failures name the file and the phase. */
export interface AppLifecycle {
  file: string;
  run(phase: Phase, strapi: StrapiApp): Promise<void>;
}

/** `(src/index.ts:12:7)`: where in the app's file an error was thrown, when its stack says so. */
function location(err: unknown, appDir: string, file: string): string {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  // the first frame in the app (a missing module's "Require stack" names the file without a line first)
  const at = stack
    .split('\n')
    .filter((l) => l.includes(appDir))
    .map((l) => /:(\d+):(\d+)\)?\s*$/.exec(l))
    .find((match) => match !== null);
  return at ? ` (${file}:${at[1]}:${at[2]})` : '';
}

/** Loads the app's `src/index` (or root `index`) with Strapi v4's rules: only register/bootstrap/destroy functions. */
export async function loadLifecycle(appDir: string): Promise<AppLifecycle | undefined> {
  const file = findLifecycleFile(appDir);
  if (file === undefined) return undefined;
  const exported = await withStrapiFactories(() => importAppModule(join(appDir, file), file));
  if (exported === undefined || exported === null) return undefined;
  if (typeof exported !== 'object')
    throw new ConfigError(file, undefined, 'must export an object { register, bootstrap, destroy }');
  const functions = new Map<Phase, PhaseFunction>();
  for (const [key, value] of Object.entries(exported)) {
    if (key === '__esModule') continue;
    if (!(PHASES as readonly string[]).includes(key))
      throw new ConfigError(file, key, 'is not a lifecycle function: export only register, bootstrap and destroy');
    if (typeof value !== 'function') throw new ConfigError(file, key, 'must be a function');
    functions.set(key as Phase, value as PhaseFunction);
  }
  return {
    file,
    async run(phase, strapi) {
      const fn = functions.get(phase);
      if (!fn) return;
      try {
        await fn({ strapi });
      } catch (err) {
        const missing = missingModuleMessage(err);
        const message = missing ? missing : `failed: ${err instanceof Error ? err.message : String(err)}`;
        throw new ConfigError(file, undefined, `${phase}() ${message}${location(err, appDir, file)}`);
      }
    },
  };
}
