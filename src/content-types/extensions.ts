import type { ContentTypeSource } from './normalize.js';
import type { SchemaNotice } from './notices.js';
import type { ContentTypeSchema, SchemaAttribute } from './types.js';

/** `src/extensions/<plugin>/content-types/<name>/schema.json` of a Strapi v4 project. */
export interface ExtensionSource {
  plugin: string;
  name: string;
  schema: Partial<ContentTypeSchema>;
  source: string;
}

/**
 * The plugins' content-types with the app's extensions applied as Strapi v4 applies them: the
 * extension's top-level keys replace the plugin schema's (so an extension's `attributes` is the
 * whole attribute list: the plugin's, changed or not, plus the app's own). Attributes of the
 * plugin that an extension leaves out are kept, since the plugin's own routes read and write them
 * (one info line names them). An extension of a content-type no enabled plugin has is ignored,
 * with one info line.
 */
export function applyExtensions(
  contentTypes: ContentTypeSource[],
  extensions: ExtensionSource[],
  notices: SchemaNotice[],
): ContentTypeSource[] {
  const byUid = new Map(contentTypes.filter((ct) => ct.namespace === 'plugin').map((ct) => [ct.uid, ct]));
  for (const extension of extensions) {
    const uid = `plugin::${extension.plugin}.${extension.name}`;
    const base = byUid.get(uid);
    if (!base) {
      notices.push({
        level: 'info',
        message: `${extension.source}: ignored, ${uid} is not a content-type of an enabled plugin here`,
      });
      continue;
    }
    const schema: ContentTypeSchema = { ...base.schema, ...extension.schema };
    if (extension.schema.attributes && typeof extension.schema.attributes === 'object') {
      const kept = Object.entries(base.schema.attributes).filter(([name]) => !(name in schema.attributes));
      if (kept.length > 0) {
        const attributes: Record<string, SchemaAttribute> = { ...schema.attributes, ...Object.fromEntries(kept) };
        schema.attributes = attributes;
        notices.push({
          level: 'info',
          message:
            `${extension.source}: keeps the plugin's attributes it leaves out ` +
            `(${kept.map(([name]) => name).join(', ')}), which ${extension.plugin} needs`,
        });
      }
    }
    byUid.set(uid, { ...base, schema, source: extension.source });
  }
  return contentTypes.map((ct) => (ct.namespace === 'plugin' ? (byUid.get(ct.uid) ?? ct) : ct));
}
