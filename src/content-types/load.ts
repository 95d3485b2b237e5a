import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { customCodeNotices } from './custom-code.js';
import type { ExtensionSource } from './extensions.js';
import type { ComponentSource, ContentTypeSource } from './normalize.js';
import type { SchemaNotice } from './notices.js';
import { SchemaError } from './schema-error.js';
import type { ComponentSchema, ContentTypeSchema } from './types.js';

export interface LoadedSchemas {
  contentTypes: ContentTypeSource[];
  components: ComponentSource[];
  /** `src/extensions/<plugin>/content-types/<name>/schema.json`: merged over the plugin's content-type */
  extensions: ExtensionSource[];
  /** what of the project is ignored or read differently, one start-up log line each */
  notices: SchemaNotice[];
}

function readJson<T>(file: string): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SchemaError(file, `cannot read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new SchemaError(file, `invalid JSON: ${(err as Error).message}`);
  }
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

const isDir = (p: string) => statSync(p).isDirectory();
const isJson = (p: string) => p.endsWith('.json') && statSync(p).isFile();

/** `<root>/<category>/<name>.json` → uid `<category>.<name>` */
function loadComponents(root: string): ComponentSource[] {
  const out: ComponentSource[] = [];
  for (const category of listDir(root)) {
    const dir = join(root, category);
    if (!isDir(dir)) continue;
    for (const file of listDir(dir)) {
      const path = join(dir, file);
      if (!isJson(path)) continue;
      out.push({
        uid: `${category}.${basename(file, '.json')}`,
        schema: readJson<ComponentSchema>(path),
        source: path,
      });
    }
  }
  return out;
}

/**
 * The app layout: `schemas/api/<name>.json` (uid `api::<name>.<name>`),
 * `schemas/api/<api>/<name>.json` (uid `api::<api>.<name>`), `schemas/components/<category>/<name>.json`.
 */
function loadAppLayout(schemasDir: string): LoadedSchemas {
  const contentTypes: ContentTypeSource[] = [];
  const apiDir = join(schemasDir, 'api');
  for (const entry of listDir(apiDir)) {
    const path = join(apiDir, entry);
    if (isJson(path)) {
      const name = basename(entry, '.json');
      contentTypes.push({ uid: `api::${name}.${name}`, schema: readJson<ContentTypeSchema>(path), source: path });
    } else if (isDir(path)) {
      for (const file of listDir(path)) {
        const filePath = join(path, file);
        if (!isJson(filePath)) continue;
        contentTypes.push({
          uid: `api::${entry}.${basename(file, '.json')}`,
          schema: readJson<ContentTypeSchema>(filePath),
          source: filePath,
        });
      }
    }
  }
  return { contentTypes, components: loadComponents(join(schemasDir, 'components')), extensions: [], notices: [] };
}

/** `src/extensions/<plugin>/content-types/<name>/schema.json` of a Strapi v4 project. */
function loadExtensions(extensionsDir: string): ExtensionSource[] {
  const out: ExtensionSource[] = [];
  for (const plugin of listDir(extensionsDir)) {
    const ctDir = join(extensionsDir, plugin, 'content-types');
    if (!existsSync(ctDir) || !isDir(ctDir)) continue;
    for (const name of listDir(ctDir)) {
      const file = join(ctDir, name, 'schema.json');
      if (!existsSync(file)) continue;
      out.push({ plugin, name, schema: readJson<Partial<ContentTypeSchema>>(file), source: file });
    }
  }
  return out;
}

/** A plugin's schema file may hold `{ schema: {...} }`, the content-type as its server code exports it. */
function unwrapped(read: ContentTypeSchema | { schema: ContentTypeSchema }): ContentTypeSchema {
  return 'schema' in read && typeof read.schema === 'object' && read.schema !== null && !('attributes' in read)
    ? read.schema
    : (read as ContentTypeSchema);
}

/**
 * Content-types of the project's local plugins (`src/plugins/<plugin>/server/content-types/<name>/
 * schema.json`, or `server/src/...` as the plugin SDK lays them out): uid `plugin::<plugin>.<singularName>`.
 * For a plugin whose code does not run here, so the app's relations to them load; one whose server
 * code runs (`running` holds a file of its folder) has the types that code exports, under the name
 * `config/plugins` gives it, which need not be its folder's.
 */
function loadLocalPluginTypes(pluginsDir: string, running: ReadonlySet<string>): ContentTypeSource[] {
  const out: ContentTypeSource[] = [];
  const runs = (dir: string) => [...running].some((file) => file.startsWith(`${dir}${sep}`));
  for (const plugin of listDir(pluginsDir)) {
    if (runs(join(pluginsDir, plugin))) continue;
    for (const ctDir of ['server/content-types', 'server/src/content-types'].map((d) => join(pluginsDir, plugin, d))) {
      if (!existsSync(ctDir) || !isDir(ctDir)) continue;
      for (const name of listDir(ctDir)) {
        const file = join(ctDir, name, 'schema.json');
        if (!existsSync(file)) continue;
        const schema = unwrapped(readJson<ContentTypeSchema | { schema: ContentTypeSchema }>(file));
        const singular = typeof schema?.info?.singularName === 'string' ? schema.info.singularName : name;
        out.push({ uid: `plugin::${plugin}.${singular}`, schema, source: file, namespace: 'plugin' });
      }
    }
  }
  return out;
}

/** A Strapi v4 project: `src/api/<api>/content-types/<name>/schema.json`, `src/components/<category>/<name>.json`. */
function loadStrapiLayout(srcDir: string, running: ReadonlySet<string>): LoadedSchemas {
  const contentTypes: ContentTypeSource[] = [];
  const apiDir = join(srcDir, 'api');
  for (const api of listDir(apiDir)) {
    const ctDir = join(apiDir, api, 'content-types');
    for (const name of listDir(ctDir)) {
      const file = join(ctDir, name, 'schema.json');
      if (!existsSync(file)) continue;
      contentTypes.push({ uid: `api::${api}.${name}`, schema: readJson<ContentTypeSchema>(file), source: file });
    }
  }
  return {
    contentTypes: [...loadLocalPluginTypes(join(srcDir, 'plugins'), running), ...contentTypes],
    components: loadComponents(join(srcDir, 'components')),
    extensions: loadExtensions(join(srcDir, 'extensions')),
    notices: customCodeNotices(srcDir, running),
  };
}

/**
 * A Strapi project with no api of its own yet (no `src/api/`: a new project, or one whose types all
 * come from plugins), which Strapi starts all the same: its package.json depends on `@strapi/strapi`.
 */
function isStrapiProject(appDir: string): boolean {
  const file = join(appDir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, unknown> } | null;
    return typeof pkg?.dependencies?.['@strapi/strapi'] === 'string';
  } catch {
    return false;
  }
}

/**
 * Reads every schema of an app directory (either layout). Errors name the file. `running`: the
 * app's code files the service runs (absolute paths), left out of the "not run" notices.
 */
export function loadSchemas(appDir: string, running: ReadonlySet<string> = new Set()): LoadedSchemas {
  const schemasDir = join(appDir, 'schemas');
  if (existsSync(schemasDir)) return loadAppLayout(schemasDir);
  const srcDir = join(appDir, 'src');
  if (existsSync(join(srcDir, 'api')) || isStrapiProject(appDir)) return loadStrapiLayout(srcDir, running);
  throw new SchemaError(relative(process.cwd(), appDir) || '.', 'no schemas/ (or Strapi src/api/) directory found');
}
