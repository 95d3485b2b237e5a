// A `mappedBy` side written by the client changes the owning documents of the other type: each of
// them gets one atomic update (ids, claim stamps, order keys; its revision moves on), planned from
// what they store now before anything is written.
import { ValidationError } from '../errors/index.js';
import { LINK_ORDER, claimPath, inverseOrderPath, type Models } from '../models/index.js';
import type { InverseWrite } from './build.js';
import type { Claim } from './claims.js';
import { entries, updateEntries, type EntryUpdate, type StoredEntry } from './collection.js';
import { isOrderKey, orderKeys } from './link-order.js';
import { applyRelationInput } from './relation-input.js';
import { NEXT_REVISION } from './revision.js';
import type { WriteScope } from './scope.js';

/** One update of owning documents. */
export interface InverseOp {
  uid: string;
  filter: Record<string, unknown>;
  update: EntryUpdate;
}

export interface InversePlan {
  ops: InverseOp[];
  claims: Claim[];
}

/** The owning documents that point at `id` now, in the inverse side's order. */
async function currentLinks(
  models: Models,
  write: InverseWrite,
  id: number,
): Promise<{ ids: number[]; keys: Map<number, string> }> {
  const orderPath = inverseOrderPath(write.relation);
  const docs = await entries(models, write.relation.target)
    .find({ [write.relation.inverse.field]: id }, { projection: { _id: 1, ...(orderPath ? { [orderPath]: 1 } : {}) } })
    .toArray();
  const field = write.relation.inverse.field;
  const keyOf = (doc: StoredEntry): string | undefined => {
    const value = (doc[LINK_ORDER] as Record<string, unknown> | undefined)?.[field];
    return orderPath && isOrderKey(value) ? value : undefined;
  };
  // entries without a key (stored before keys existed) first, then by key, ties by id
  docs.sort((a, b) => {
    const [ka, kb] = [keyOf(a) ?? '', keyOf(b) ?? ''];
    return ka < kb ? -1 : ka > kb ? 1 : a._id - b._id;
  });
  const keys = new Map<number, string>();
  for (const doc of docs) {
    const key = keyOf(doc);
    if (key !== undefined) keys.set(doc._id, key);
  }
  return { ids: docs.map((doc) => doc._id), keys };
}

/** Plans the writes of every inverse side of `writes` for the entry `id`; a bad connect is a 400 here. */
export async function planInverseWrites(
  models: Models,
  writes: InverseWrite[],
  id: number,
  stamp: () => Promise<number>,
): Promise<InversePlan> {
  const plan: InversePlan = { ops: [], claims: [] };
  for (const write of writes) {
    const uid = write.relation.target;
    const { field, multiple: ownerMultiple } = write.relation.inverse;
    const orderPath = inverseOrderPath(write.relation);
    const current = await currentLinks(models, write, id);
    const outcome = applyRelationInput(current.ids, write.input, write.relation.multiple);
    if (!outcome.ok) throw new ValidationError(outcome.message);
    const next = write.relation.multiple ? outcome.ids : outcome.ids.slice(-1);
    const removed = current.ids.filter((x) => !next.includes(x));
    const added = next.filter((x) => !current.ids.includes(x));
    if (removed.length > 0) {
      const unset: Record<string, ''> = {
        [claimPath(field, ownerMultiple, id)]: '',
        ...(orderPath ? { [orderPath]: '' } : {}),
      };
      plan.ops.push({
        uid,
        filter: { _id: { $in: removed }, [field]: id },
        update: {
          ...(ownerMultiple ? { $pull: { [field]: id } } : { $set: { [field]: null } }),
          $unset: unset,
          ...NEXT_REVISION,
        },
      });
    }
    if (!write.relation.multiple) {
      // this side is to-one, so the owning side's target is exclusive: the new owner claims it
      for (const owner of added) {
        const value = await stamp();
        const claimed = { [claimPath(field, ownerMultiple, id)]: value };
        plan.ops.push({
          uid,
          filter: { _id: owner },
          update: ownerMultiple
            ? { $addToSet: { [field]: id }, $set: claimed, ...NEXT_REVISION }
            : { $set: { [field]: id, ...claimed }, ...NEXT_REVISION },
        });
        plan.claims.push({ uid, field, multiple: ownerMultiple, owner, target: id, stamp: value });
      }
    } else if (ownerMultiple) {
      if (added.length > 0)
        plan.ops.push({
          uid,
          filter: { _id: { $in: added } },
          update: { $addToSet: { [field]: id }, ...NEXT_REVISION },
        });
    } else if (orderPath) {
      const moved = new Set(write.input.kind === 'patch' ? write.input.connect.map((item) => item.id) : added);
      for (const [owner, key] of orderKeys(next, current.keys, moved))
        plan.ops.push({
          uid,
          filter: { _id: owner },
          update: { $set: { [field]: id, [orderPath]: key }, ...NEXT_REVISION },
        });
    }
  }
  return plan;
}

export async function applyInverseOps(models: Models, ops: InverseOp[], scope: WriteScope): Promise<void> {
  for (const op of ops) await updateEntries(models, op.uid, op.filter, op.update, { session: scope.session });
}
