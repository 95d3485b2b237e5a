// Fields an entry document stores besides its attributes (docs/ARCHITECTURE.md, storage layout).
// They are never attributes (the names are reserved) and never answered.
import type { RelationInfo } from '../content-types/index.js';

/** Incremented by every write of the document; updates that depend on what they read check it (compare-and-set). */
export const REVISION = '__rev';

/**
 * `__claim.<field>` (to-one) or `__claim.<field>.<targetId>` (to-many): the stamp of the write that
 * linked a target through an owning side whose inverse is to-one; the newest stamp keeps the target.
 */
export const CLAIMS = '__claim';

/** `__order.<field>`: the position of this entry in the to-many inverse side of its to-one owning field. */
export const LINK_ORDER = '__order';

export const STORAGE_FIELDS = [REVISION, CLAIMS, LINK_ORDER] as const;

/** The claim stamp path of one link. */
export function claimPath(field: string, multiple: boolean, target: number): string {
  return multiple ? `${CLAIMS}.${field}.${target}` : `${CLAIMS}.${field}`;
}

/**
 * For a to-many inverse side whose owning side is to-one (a oneToMany `mappedBy` a manyToOne), the
 * owning documents' field that orders it; null for every other relation.
 */
export function inverseOrderPath(relation: RelationInfo): string | null {
  return relation.multiple && relation.inverse && !relation.inverse.multiple
    ? `${LINK_ORDER}.${relation.inverse.field}`
    : null;
}
