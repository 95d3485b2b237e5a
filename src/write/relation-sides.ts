// A `mappedBy` side written by the client changes the owning documents of the other type: each of
// them gets one atomic update (ids, claim stamps, order keys; its revision moves on), planned from
// what they store now before anything is written.
import { ValidationError } from '../errors/index.js';
import { LINK_ORDER, claimPath, inverseOrder, orderPath, type Models } from '../models/index.js';
import type { InverseWrite } from './build.js';
import type { Claim } from './claims.js';
import { entries, updateEntries, type EntryUpdate, type StoredEntry } from './collection.js';
import { isOrderKey, orderKeys } from './link-order.js';
import { appendedKeys } from './owning-links.js';
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
  const field = write.relation.inverse.field;
  const order = inverseOrder(write.relation);
  const path = order ? orderPath(field, order.perLink, id) : null;
  const docs = await entries(models, write.relation.target)
    .find({ [field]: id }, { projection: { _id: 1, ...(path ? { [path]: 1 } : {}) } })
    .toArray();
  const keyOf = (doc: StoredEntry): string | undefined => {
    const stored = (doc[LINK_ORDER] as Record<string, unknown> | undefined)?.[field];
    const value = order?.perLink ? (stored as Record<string, unknown> | undefined)?.[String(id)] : stored;
    return path && isOrderKey(value) ? value : undefined;
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
    if (appendsOnly(write)) {
      plan.ops.push(...(await appendOps(models, write, id)));
      continue;
    }
    const current = await currentLinks(models, write, id);
    const outcome = applyRelationInput(current.ids, write.input, write.relation.multiple);
    if (!outcome.ok) throw new ValidationError(outcome.message);
    const next = write.relation.multiple ? outcome.ids : outcome.ids.slice(-1);
    const removed = current.ids.filter((x) => !next.includes(x));
    const added = next.filter((x) => !current.ids.includes(x));
    // this side's order, kept by the owning entries (one key per entry, or per link when they hold arrays)
    const keyPath = write.relation.multiple ? orderPath(field, ownerMultiple, id) : null;
    if (removed.length > 0) plan.ops.push(unlinkOp(write, id, removed, keyPath));
    if (!keyPath) {
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
      continue;
    }
    // new links and the entries this write moves get keys; an entry whose key no longer fits (stored
    // without one, or out of order) gets a new one without being linked again
    const moved = new Set(write.input.kind === 'patch' ? write.input.connect.map((item) => item.id) : added);
    for (const [owner, key] of orderKeys(next, current.keys, moved)) {
      const link = added.includes(owner);
      plan.ops.push({
        uid,
        filter: link ? { _id: owner } : { _id: owner, [field]: id },
        update: ownerMultiple
          ? { ...(link ? { $addToSet: { [field]: id } } : {}), $set: { [keyPath]: key }, ...NEXT_REVISION }
          : { $set: { [field]: id, [keyPath]: key }, ...NEXT_REVISION },
      });
    }
  }
  return plan;
}

/** The owning entries of `owners` that still link to `id` stop linking to it (ids, claim stamp, order key). */
function unlinkOp(write: InverseWrite, id: number, owners: number[], keyPath: string | null): InverseOp {
  const { field, multiple: ownerMultiple } = write.relation.inverse;
  return {
    uid: write.relation.target,
    filter: { _id: { $in: owners }, [field]: id },
    update: {
      ...(ownerMultiple ? { $pull: { [field]: id } } : { $set: { [field]: null } }),
      $unset: { [claimPath(field, ownerMultiple, id)]: '', ...(keyPath ? { [keyPath]: '' } : {}) },
      ...NEXT_REVISION,
    },
  };
}

/**
 * A to-many side whose new order is computed from the order it read (a `set`, a list, a `connect`
 * with a position): the write of the entry holding that side compares its revision, so two such
 * writes of one list cannot both place entries from the same read (their keys would tie).
 */
export function readsInverseOrder(write: InverseWrite): boolean {
  return write.relation.multiple && !appendsOnly(write);
}

/**
 * A to-many side changed only by `connect`s without a position (or at the end) and `disconnect`s:
 * its list's order is not needed. Connected entries go to the end (a connected one moves there,
 * as Strapi does), with keys from the shared append counter, so a tag's thousands of articles are
 * not read to link one more.
 */
function appendsOnly(write: InverseWrite): boolean {
  const input = write.input;
  return (
    write.relation.multiple &&
    input.kind === 'patch' &&
    input.repeated === null &&
    input.connect.every((item) => item.position === undefined || 'end' in item.position)
  );
}

async function appendOps(models: Models, write: InverseWrite, id: number): Promise<InverseOp[]> {
  const input = write.input as Extract<InverseWrite['input'], { kind: 'patch' }>;
  const { field, multiple: ownerMultiple } = write.relation.inverse;
  const keyPath = orderPath(field, ownerMultiple, id);
  const connected = input.connect.map((item) => item.id);
  const dropped = input.disconnect.filter((owner) => !connected.includes(owner));
  const ops = dropped.length > 0 ? [unlinkOp(write, id, dropped, keyPath)] : [];
  const keys = await appendedKeys(models, connected.length);
  connected.forEach((owner, i) => {
    const key = keys[i] as string;
    ops.push({
      uid: write.relation.target,
      filter: { _id: owner },
      update: ownerMultiple
        ? { $addToSet: { [field]: id }, $set: { [keyPath]: key }, ...NEXT_REVISION }
        : { $set: { [field]: id, [keyPath]: key }, ...NEXT_REVISION },
    });
  });
  return ops;
}

export async function applyInverseOps(models: Models, ops: InverseOp[], scope: WriteScope): Promise<void> {
  for (const op of ops) await updateEntries(models, op.uid, op.filter, op.update, { session: scope.session });
}
