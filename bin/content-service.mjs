#!/usr/bin/env node
// Runs the compiled CLI when built (Docker image), else the TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let cli;
if (existsSync(built)) {
  cli = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli.ts');
}
const code = await cli.run(process.argv.slice(2));
// a failure ends the process now, whatever still runs (the embedded engine's thread)
if (code !== undefined) process.exit(code);
