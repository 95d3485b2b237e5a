#!/usr/bin/env node
// Runs the compiled CLI when built (Docker image), else the TypeScript sources through tsx.
// `start` begins its database before the CLI and the service's modules load (early-start-entry.ts):
// the embedded engine opens its data on another core meanwhile.
import { existsSync } from 'node:fs';

const built = existsSync(new URL('../dist/cli.js', import.meta.url));
if (!built) {
  const { register } = await import('tsx/esm/api');
  register();
}
const load = (name) => import(new URL(built ? `../dist/${name}.js` : `../src/${name}.ts`, import.meta.url).href);

const argv = process.argv.slice(2);
const { beginStart } = await load('early-start-entry');
const early = beginStart(argv);
// The configuration is read before the CLI's modules load, not while they do: with both under way,
// the build (dist/) sometimes got an empty CommonJS module (lodash's camelCase, imported by
// middlewares/koa-context, "is not a function": 3 starts in 20). The engine's worker is
// already started when this settles; its recovery and decoding still overlap the loading.
await early?.catch(() => {});
const cli = await load('cli');
const code = await cli.run(argv, { early });
// a failure ends the process now, whatever still runs (the embedded engine's thread)
if (code !== undefined) process.exit(code);
