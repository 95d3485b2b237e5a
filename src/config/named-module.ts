import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import kebabCase from 'lodash/kebabCase.js';

/** TypeScript first, as the app's other modules. */
const EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'];
const KEBAB_CASE = /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/;

/** The name Strapi v4 registers a module file under: its file name in kebab-case (`isOwner.js` → `is-owner`). */
function registeredName(base: string): string {
  return KEBAB_CASE.test(base) ? base : kebabCase(base);
}

/**
 * The module of folder `dir` that Strapi knows as `name` (a policy, a middleware): `<name>.ts|js`,
 * else the file whose name Strapi turns into `name`. Undefined when there is none.
 */
export function namedModuleFile(dir: string, name: string): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const files = readdirSync(dir).filter((file) => EXTENSIONS.includes(extname(file)) && !file.endsWith('.d.ts'));
  const byExtension = (a: string, b: string) => EXTENSIONS.indexOf(extname(a)) - EXTENSIONS.indexOf(extname(b));
  const exact = files.filter((file) => file.slice(0, -extname(file).length) === name).sort(byExtension);
  const normalised = files
    .filter((file) => registeredName(file.slice(0, -extname(file).length)) === name)
    .sort(byExtension);
  const found = exact[0] ?? normalised[0];
  return found === undefined ? undefined : join(dir, found);
}
