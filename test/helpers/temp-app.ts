import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempAppFiles {
  /** `schemas/api/<name>.json` by name */
  api?: Record<string, unknown>;
  /** `schemas/components/<category>/<name>.json` by component uid (`category.name`) */
  components?: Record<string, unknown>;
  /** `config/<name>.json` by name; `permissions` defaults to `{}` */
  config?: Record<string, unknown>;
}

/** An app directory (schemas + config) written to a fresh temporary directory, for suites that need a model of their own. */
export async function writeTempApp(files: TempAppFiles): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-app-'));
  const put = async (path: string, value: unknown) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(value));
  };
  for (const [name, schema] of Object.entries(files.api ?? {}))
    await put(join(dir, 'schemas', 'api', `${name}.json`), schema);
  for (const [uid, schema] of Object.entries(files.components ?? {})) {
    const [category, name] = uid.split('.');
    await put(join(dir, 'schemas', 'components', category ?? uid, `${name ?? uid}.json`), schema);
  }
  await mkdir(join(dir, 'schemas', 'api'), { recursive: true });
  for (const [name, value] of Object.entries({ permissions: {}, ...files.config }))
    await put(join(dir, 'config', `${name}.json`), value);
  return dir;
}

/** A component schema (`<category>.<name>`) for `writeTempApp`'s `components`. */
export function componentSchema(uid: string, attributes: Record<string, unknown>): Record<string, unknown> {
  const [category, name] = uid.split('.');
  return {
    collectionName: `components_${category}_${(name ?? uid).replace(/-/g, '_')}s`,
    info: { displayName: name ?? uid },
    attributes,
  };
}
