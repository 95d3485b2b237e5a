import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemas, Registry } from '../../src/content-types/index.js';

/**
 * The demo app of this repository (its root: `schemas/`, `config/`, `seed.json`), on which the API
 * suites run. Its content model and seed are those the recorded Strapi answers were taken on
 * (test/fixtures/README.md).
 */
export const PUBLICATION_APP = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The demo content: `{ operations: [...] }`, replayed in order (src/seed/demo-seed.ts). */
export const SEED_FILE = join(PUBLICATION_APP, 'seed.json');

/** A copy of the demo app (its schemas, config and seed, not the repository around them) in a fresh temporary directory. */
export async function copyDemoApp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-demo-'));
  for (const part of ['schemas', 'config', 'seed.json'])
    await cp(join(PUBLICATION_APP, part), join(dir, part), { recursive: true });
  return dir;
}

/** The registry of the demo app's content-types (i18n on), for unit tests that need no database. */
export function publicationRegistry(): Registry {
  const loaded = loadSchemas(PUBLICATION_APP);
  return Registry.build(loaded.contentTypes, loaded.components, { i18n: true });
}

/** A Strapi v4 project layout (src/api, src/components, src/extensions, config) modelled on public projects. */
export const STRAPI_PROJECT = fileURLToPath(new URL('../fixtures/strapi-project', import.meta.url));
