import { relative } from 'node:path';
import { nearMiss } from '../config/index.js';
import type { SchemaNotice } from './notices.js';

/** The keys a Strapi v4 schema file may hold at its top. */
const SCHEMA_KEYS = ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes', 'config'];

/**
 * The keys a Strapi v4 attribute may hold: those this service reads and those only Strapi's admin
 * panel or SQL layer reads (column settings, join tables, morph relations).
 */
const ATTRIBUTE_KEYS = [
  'type',
  'required',
  'unique',
  'private',
  'configurable',
  'writable',
  'visible',
  'searchable',
  'pluginOptions',
  'customField',
  'options',
  'default',
  'min',
  'max',
  'minLength',
  'maxLength',
  'regex',
  'enum',
  'enumName',
  'targetField',
  'relation',
  'target',
  'inversedBy',
  'mappedBy',
  'morphBy',
  'morphColumn',
  'joinTable',
  'joinColumn',
  'useJoinTable',
  'multiple',
  'allowedTypes',
  'component',
  'repeatable',
  'components',
  'column',
  'columnType',
  'conditions',
];

interface SchemaFile {
  source: string;
  schema: object;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * One warning per key of a schema file or of one of its attributes that is one slip away from a key
 * Strapi knows ("requried", "colectionName"): such a key is ignored, so the intent would be lost
 * silently. Keys far from every known one are left alone (a plugin's or a tool's own).
 */
export function schemaKeyTypos(appDir: string, files: SchemaFile[]): SchemaNotice[] {
  const notices: SchemaNotice[] = [];
  const warn = (source: string, where: string, key: string, suggestion: string) =>
    notices.push({
      level: 'warn',
      message: `${relative(appDir, source)}${where}: unknown key "${key}" is ignored; did you mean "${suggestion}"?`,
    });
  for (const { source, schema } of files) {
    for (const key of Object.keys(schema)) {
      const suggestion = nearMiss(key, SCHEMA_KEYS);
      if (suggestion !== undefined) warn(source, '', key, suggestion);
    }
    const attributes: unknown = (schema as { attributes?: unknown }).attributes;
    if (!isRecord(attributes)) continue;
    for (const [name, attribute] of Object.entries(attributes)) {
      if (!isRecord(attribute)) continue;
      for (const key of Object.keys(attribute)) {
        const suggestion = nearMiss(key, ATTRIBUTE_KEYS);
        if (suggestion !== undefined) warn(source, ` (attribute "${name}")`, key, suggestion);
      }
    }
  }
  return notices;
}
