import type { ComponentSource, ContentTypeSource } from './normalize.js';
import type { SchemaAttribute } from './types.js';

/** What the app's code did to a content-type's attributes: set (added or replaced) and removed ones. */
export interface AttributeChanges {
  set: Record<string, SchemaAttribute>;
  removed: string[];
}

/**
 * The content-types (or components) with the app's changes to their attributes, each changed one
 * named by `source` (where its messages point: the code that changed it, not the file it was read from).
 */
export function withAttributeChanges<T extends ContentTypeSource | ComponentSource>(
  contentTypes: readonly T[],
  changes: ReadonlyMap<string, AttributeChanges>,
  source: (type: T) => string,
): T[] {
  return contentTypes.map((type) => {
    const change = changes.get(type.uid);
    if (!change) return type;
    const attributes = Object.fromEntries(
      Object.entries(type.schema.attributes).filter(([name]) => !change.removed.includes(name)),
    );
    return {
      ...type,
      schema: { ...type.schema, attributes: { ...attributes, ...structuredClone(change.set) } },
      source: source(type),
    };
  });
}
