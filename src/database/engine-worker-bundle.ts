import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The engine's worker, when the service runs from its TypeScript sources, as one JavaScript file
 * made by esbuild (a dependency of tsx) with the engine's packages inside: the worker then loads
 * one module instead of registering tsx and compiling the engine's modules through tsx's hooks
 * thread (a start's critical path runs on the engine's thread: 0.2–0.5 s of it was that boot).
 * The file is made once and reused while every file it was made from is unchanged (sizes and
 * modification times, listed beside it); a start after an edit makes it again (about 0.5 s).
 */

/** What a bundle was made from: each input's path, size and modification time. */
interface Manifest {
  entry: string;
  esbuild: string;
  inputs: Array<[path: string, size: number, mtimeMs: number]>;
}

interface Esbuild {
  version: string;
  buildSync(options: Record<string, unknown>): { metafile?: { inputs: Record<string, unknown> } };
}

/**
 * The path of an up-to-date bundle of the worker module `entry` (a `.ts` file), made now if none
 * is; undefined when none can be had (esbuild missing or failing, no private cache directory):
 * the caller then runs the sources through tsx.
 */
export function engineWorkerBundle(entry: URL): string | undefined {
  try {
    // tsx's own esbuild, wherever npm put it
    const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
    // its version from its package.json: esbuild itself is loaded only to make a bundle
    const { version } = fromTsx('esbuild/package.json') as { version: string };
    const dir = privateCacheDir();
    if (!dir) return undefined;
    const entryPath = fileURLToPath(entry);
    const name = createHash('sha256').update(`${entryPath}\0${version}`).digest('hex').slice(0, 16);
    const bundle = join(dir, `${name}.mjs`);
    const manifestFile = join(dir, `${name}.json`);
    if (isFresh(manifestFile, entryPath, version)) return bundle;
    build(fromTsx('esbuild') as Esbuild, entryPath, bundle, manifestFile);
    return bundle;
  } catch {
    return undefined;
  }
}

function build(esbuild: Esbuild, entryPath: string, bundle: string, manifestFile: string): void {
  const base = dirname(entryPath);
  const started = Date.now();
  const result = esbuild.buildSync({
    entryPoints: [entryPath],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile: `${bundle}.${process.pid}.tmp`,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: base,
  });
  const inputs = Object.keys(result.metafile?.inputs ?? {}).map((input) => {
    const path = resolve(base, input);
    const stat = statSync(path);
    return [path, stat.size, stat.mtimeMs] as [string, number, number];
  });
  // each file replaced whole (concurrent starts may build at once): the bundle, then what it was made from
  renameSync(`${bundle}.${process.pid}.tmp`, bundle);
  // an input changed while the build ran may not be in it: no manifest, so the next start builds again
  if (inputs.some(([, , mtimeMs]) => mtimeMs >= started - 1000)) return;
  const manifest: Manifest = { entry: entryPath, esbuild: esbuild.version, inputs };
  writeFileSync(`${manifestFile}.${process.pid}.tmp`, JSON.stringify(manifest));
  renameSync(`${manifestFile}.${process.pid}.tmp`, manifestFile);
}

function isFresh(manifestFile: string, entryPath: string, version: string): boolean {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    return false;
  }
  if (manifest.entry !== entryPath || manifest.esbuild !== version || manifest.inputs.length === 0) return false;
  return manifest.inputs.every(([path, size, mtimeMs]) => {
    try {
      const stat = statSync(path);
      return stat.size === size && stat.mtimeMs === mtimeMs;
    } catch {
      return false;
    }
  });
}

/**
 * A cache directory only this user can write (code is loaded from it): made with mode 700, and
 * refused if another user owns it or others may write to it.
 */
function privateCacheDir(): string | undefined {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `content-service-worker-bundles-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
  return dir;
}

/**
 * The parent's Node options without those that load tsx (`--import tsx`, as tests and benches
 * run): a worker inherits them and would register tsx for nothing.
 */
export function execArgvWithoutTsx(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const flag = /^--(import|loader|experimental-loader|require)$/.test(arg) || arg === '-r';
    if (flag && isTsx(execArgv[i + 1])) {
      i++;
      continue;
    }
    const inline = /^--(?:import|loader|experimental-loader|require)=(.*)$/.exec(arg);
    if (inline && isTsx(inline[1])) continue;
    out.push(arg);
  }
  return out;
}

function isTsx(specifier: string | undefined): boolean {
  return specifier !== undefined && /^tsx(\/|$)/.test(specifier);
}
