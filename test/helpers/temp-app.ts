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
  /** any other file, as text, by its path in the app (`.env`, `config/server.ts`, `src/index.ts`, …) */
  files?: Record<string, string>;
}

/**
 * A project's `note` api with a public `hello` action: its schema and the permission, as files for
 * `writeFiles` (the test adds `src/api/note/controllers/note.*` and a route naming `note.hello`).
 */
export const NOTE_HELLO_API: Record<string, string> = {
  'config/permissions.json': JSON.stringify({ public: ['api::note.note.hello'] }),
  'src/api/note/content-types/note/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { text: { type: 'string' } },
  }),
};

/** Writes text files under `dir` (paths relative to it, folders created). */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
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
  await writeFiles(dir, files.files ?? {});
  return dir;
}

/** A Strapi v4 project directory (its files as given, nothing added) in a fresh temporary directory. */
export async function writeTempProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-project-'));
  await writeFiles(dir, files);
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

/** A collection type without Draft & Publish (`api::<singular>.<singular>`) for `writeTempApp`'s `api`. */
export function collectionTypeSchema(
  singular: string,
  plural: string,
  attributes: Record<string, unknown>,
): Record<string, unknown> {
  return {
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
  };
}
