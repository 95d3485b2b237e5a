/**
 * Whether the app asked for GraphQL: its package.json installs `@strapi/plugin-graphql`, or its
 * `config/plugins` configures `graphql`. The service serves GraphQL either way; an app that did
 * not ask for it never had a GraphQL schema in Strapi, so one that cannot be built from its
 * schemas (an enumeration value GraphQL forbids, such as `true`) must not stop its REST API.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../../config/index.js';

const PACKAGE = '@strapi/plugin-graphql';

function installs(appDir: string): boolean {
  const file = join(appDir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies'].some((key) => {
      const deps = json[key];
      return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, PACKAGE);
    });
  } catch {
    return false;
  }
}

export function appAskedForGraphql(config: ServiceConfig): boolean {
  return config.plugins.graphql !== undefined || installs(config.appDir);
}
