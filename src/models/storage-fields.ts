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

/**
 * `__order.<field>` (to-one `field`) or `__order.<field>.<targetId>` (to-many `field`): the position
 * of this entry in the to-many inverse side of its owning `field`, in the target's list.
 */
export const LINK_ORDER = '__order';

export const STORAGE_FIELDS = [REVISION, CLAIMS, LINK_ORDER] as const;

/** The claim stamp path of one link. */
export function claimPath(field: string, multiple: boolean, target: number): string {
  return multiple ? `${CLAIMS}.${field}.${target}` : `${CLAIMS}.${field}`;
}

/** The order key path of one link of an owning `field` (`multiple`: the field holds an array). */
export function orderPath(field: string, multiple: boolean, target: number): string {
  return multiple ? `${LINK_ORDER}.${field}.${target}` : `${LINK_ORDER}.${field}`;
}

/**
 * How a to-many inverse side (`mappedBy`) is ordered: by the order keys its owning entries store
 * under `__order.<field>`, one per entry when the owning side is to-one (a oneToMany `mappedBy` a
 * manyToOne), one per link when it is to-many (a manyToMany). Null for every other relation.
 */
export function inverseOrder(relation: RelationInfo): { field: string; perLink: boolean } | null {
  return relation.multiple && relation.inverse
    ? { field: relation.inverse.field, perLink: relation.inverse.multiple }
    : null;
}
