// A target linked through an owning side whose inverse is to-one (a oneToOne, or a oneToMany
// `inversedBy` a manyToOne) belongs to one owner only. Without transactions two writes that link
// the same target to different owners cannot see each other, so each link carries a stamp from
// one counter and, once written, the link settles: it releases owners with older stamps, then
// gives itself up if a newer stamp holds the target. Whatever the interleaving, the newest link
// stays and every other is removed (docs/ARCHITECTURE.md, write path).
import { claimPath, type Models } from '../models/index.js';
import { entries, updateEntries, type EntryUpdate } from './collection.js';
import { NEXT_REVISION } from './revision.js';

/** One link written by this request: `owner`'s `field` now holds `target`, stamped `stamp`. */
export interface Claim {
  uid: string;
  field: string;
  /** the owning field is an array */
  multiple: boolean;
  owner: number;
  target: number;
  stamp: number;
}

const STAMP_COUNTER = 'claim:stamp';

/** One stamp per write, taken before it writes (so a later request always has a newer one). */
export function newStamp(models: Models): Promise<number> {
  return models.counters.next(STAMP_COUNTER);
}

/** The update that removes `target` from an owner's `field`, with its stamp. */
function unlinkUpdate(field: string, multiple: boolean, target: number): EntryUpdate {
  const unset: Record<string, ''> = { [claimPath(field, multiple, target)]: '' };
  return multiple
    ? { $pull: { [field]: target }, $unset: unset, ...NEXT_REVISION }
    : { $set: { [field]: null }, $unset: unset, ...NEXT_REVISION };
}

/** Runs after the links are written (after the commit, where there are transactions). */
export async function settleClaims(models: Models, claims: Claim[]): Promise<void> {
  for (const claim of claims) {
    const { field, multiple, owner, target, stamp } = claim;
    const path = claimPath(field, multiple, target);
    const unlink = unlinkUpdate(field, multiple, target);
    await updateEntries(
      models,
      claim.uid,
      { _id: { $ne: owner }, [field]: target, $or: [{ [path]: { $lt: stamp } }, { [path]: { $exists: false } }] },
      unlink,
    );
    const newer = await entries(models, claim.uid).countDocuments(
      { _id: { $ne: owner }, [field]: target, [path]: { $gt: stamp } },
      { limit: 1 },
    );
    if (newer > 0) await updateEntries(models, claim.uid, { _id: owner, [field]: target, [path]: stamp }, unlink);
  }
}
