// Referential integrity without transactions. A delete removes the entry first and then every
// stored id pointing at it (references.ts); a write links first and then checks that what it
// linked still exists. If the check finds an entry present, that entry's delete had not removed
// it yet, so its sweep comes after the link and removes it; if the check finds it gone, the write
// removes the ids itself. Either way no stored id points at a deleted entry, in every interleaving
// (docs/ARCHITECTURE.md, write path). With transactions the check runs after the commit.
import type { Registry } from '../content-types/index.js';
import type { Models } from '../models/index.js';
import { entries } from './collection.js';
import { removeReferences } from './references.js';

/**
 * After a write of entry `id` of `uid` that linked `targets` (uid → ids) and, when `linkedFromOthers`,
 * wrote its own id into other entries: removes every id of those that no longer exists.
 */
export async function verifyReferences(
  models: Models,
  registry: Registry,
  uid: string,
  id: number,
  targets: Map<string, Set<number>>,
  linkedFromOthers: boolean,
): Promise<void> {
  for (const [targetUid, ids] of targets) {
    const wanted = [...ids];
    const found = await entries(models, targetUid)
      .find({ _id: { $in: wanted } }, { projection: { _id: 1 } })
      .toArray();
    const present = new Set(found.map((doc) => doc._id));
    for (const missing of wanted.filter((target) => !present.has(target)))
      await removeReferences(models, registry, targetUid, missing);
  }
  if (linkedFromOthers && (await entries(models, uid).countDocuments({ _id: id }, { limit: 1 })) === 0)
    await removeReferences(models, registry, uid, id);
}
