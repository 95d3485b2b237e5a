import { join } from 'node:path';
import has from 'lodash/has.js';
import merge from 'lodash/merge.js';
import { readConfigDir } from './read-config-dir.js';

/**
 * The app's configuration as Strapi v4 assembles it: every file of `config/`, then every file of
 * `config/env/<NODE_ENV>/` deep-merged over it (lodash `merge`: objects key by key, arrays index
 * by index). `tree.server`, `tree.plugins`, `tree.middlewares`, … hold the merged values.
 */
export interface ConfigTree {
  tree: Record<string, unknown>;
  environment: string;
  /** the file that defines `name` + `path` (the environment's file when it sets that key), for messages */
  fileOf(name: string, path?: string): string;
}

export async function readConfigTree(appDir: string, environment: string): Promise<ConfigTree> {
  const base = await readConfigDir(appDir, join(appDir, 'config'));
  const overrides = await readConfigDir(appDir, join(appDir, 'config', 'env', environment));
  const tree: Record<string, unknown> = {};
  for (const [name, { value }] of base) merge(tree, { [name]: value });
  for (const [name, { value }] of overrides) merge(tree, { [name]: value });
  return {
    tree,
    environment,
    fileOf(name, path) {
      const override = overrides.get(name);
      if (override && (path === undefined || has(override.value, path))) return override.file;
      return base.get(name)?.file ?? override?.file ?? `config/${name}`;
    },
  };
}
