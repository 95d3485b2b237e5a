import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Strapi v4 apps keep their lifecycle module, TypeScript first. */
const CANDIDATES = ['src/index.ts', 'src/index.js', 'src/index.mjs', 'src/index.cjs', 'index.ts', 'index.js'];

/** This package's own root: its `src/index.ts` is the service's entry point, never an app's lifecycle file. */
const OWN_ROOT = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));

function isOwnSource(path: string): boolean {
  const rel = relative(OWN_ROOT, realpathSync(path));
  return (
    rel === '' ||
    (!rel.startsWith('..') && (rel.startsWith(`src${sep}`) || rel.startsWith(`dist${sep}`) || !rel.includes(sep)))
  );
}

/** The app's lifecycle file (`src/index.ts|js` or `index.ts|js` at its root), relative to the app; undefined when it has none. */
export function findLifecycleFile(appDir: string): string | undefined {
  return CANDIDATES.find((candidate) => {
    const path = join(appDir, candidate);
    return existsSync(path) && statSync(path).isFile() && !isOwnSource(path);
  });
}
