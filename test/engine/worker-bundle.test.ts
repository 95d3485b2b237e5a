import { expect } from 'chai';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { engineWorkerBundle, execArgvWithoutTsx } from '../../src/database/engine-worker-bundle.js';

/** What a worker started on `file` posts first. */
function firstMessage(file: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(pathToFileURL(file), { execArgv: execArgvWithoutTsx(process.execArgv) });
    worker.once('message', (message) => {
      void worker.terminate().then(() => resolve(message));
    });
    worker.once('error', reject);
  });
}

describe('engine worker: one bundled module instead of tsx in the worker', function () {
  let sources: string;
  let cache: string;
  let savedTmpdir: string | undefined;
  beforeEach(() => {
    sources = mkdtempSync(join(tmpdir(), 'worker-bundle-src-'));
    cache = mkdtempSync(join(tmpdir(), 'worker-bundle-cache-'));
    savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = cache; // the bundles go to a directory of this test
  });
  afterEach(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    rmSync(sources, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  /** A worker module in TypeScript importing another: it posts that one's value. */
  function writeSources(value: string, secondsAgo: number): URL {
    const entry = join(sources, 'entry.ts');
    const part = join(sources, 'part.ts');
    writeFileSync(
      entry,
      `import { parentPort } from 'node:worker_threads';\nimport { value } from './part.js';\nparentPort?.postMessage(value satisfies string);\n`,
    );
    writeFileSync(part, `export const value: string = ${JSON.stringify(value)};\n`);
    // edited a while before the start (a file changed while its bundle is made is bundled again next time)
    const when = new Date(Date.now() - secondsAgo * 1000);
    for (const file of [entry, part]) utimesSync(file, when, when);
    return pathToFileURL(entry);
  }

  it('runs the sources as one module, reused while they are unchanged and made again once one changes', async () => {
    const entry = writeSources('first version', 60);
    const bundle = engineWorkerBundle(entry);
    expect(bundle).to.be.a('string');
    expect(await firstMessage(bundle ?? '')).to.equal('first version');
    const made = statSync(bundle ?? '').mtimeMs;

    await new Promise((r) => setTimeout(r, 20));
    expect(engineWorkerBundle(entry)).to.equal(bundle);
    expect(statSync(bundle ?? '').mtimeMs, 'reused, not made again').to.equal(made);

    writeSources('second, longer version', 30); // the imported module changed
    const again = engineWorkerBundle(entry);
    expect(again).to.equal(bundle);
    expect(await firstMessage(again ?? '')).to.equal('second, longer version');
  });

  it('keeps no bundle of sources edited while it was made: the next start makes it again', async () => {
    const entry = writeSources('just edited', 0);
    const bundle = engineWorkerBundle(entry) ?? '';
    expect(await firstMessage(bundle)).to.equal('just edited');
    const dir = readdirSync(cache).find((name) => name.startsWith('content-service-worker-bundles-')) ?? '';
    expect(readdirSync(join(cache, dir)).filter((name) => name.endsWith('.json'))).to.deep.equal([]);
  });

  it('loads no code from a cache directory other users may write: the caller falls back to tsx', () => {
    const entry = writeSources('unused', 60);
    const dir = join(cache, `content-service-worker-bundles-${process.getuid?.() ?? 0}`);
    expect(engineWorkerBundle(entry)).to.be.a('string');
    chmodSync(dir, 0o777);
    expect(engineWorkerBundle(entry)).to.equal(undefined);
  });

  it('a bundle that cannot be made (a syntax error) leaves the caller to run the sources through tsx', () => {
    const entry = writeSources('unused', 60);
    writeFileSync(join(sources, 'part.ts'), 'export const value = ;\n');
    expect(engineWorkerBundle(entry)).to.equal(undefined);
  });

  it("drops only the options that load tsx from the worker's inherited options", () => {
    expect(execArgvWithoutTsx(['--import', 'tsx', '--expose-gc'])).to.deep.equal(['--expose-gc']);
    expect(execArgvWithoutTsx(['--import=tsx', '--require', 'tsx/cjs', '--loader=tsx/esm'])).to.deep.equal([]);
    expect(execArgvWithoutTsx(['--import', './instrument.mjs', '--enable-source-maps'])).to.deep.equal([
      '--import',
      './instrument.mjs',
      '--enable-source-maps',
    ]);
    expect(execArgvWithoutTsx(['--import', 'tsx-like-package'])).to.deep.equal(['--import', 'tsx-like-package']);
  });
});
