// What an entry's own owning relations store besides their ids: the claim stamp of a link whose
// inverse is to-one (claims.ts), and the position in the target's list of a link whose inverse is
// a to-many (link-order.ts: a newly linked entry goes to the end of that list, as in Strapi; a
// manyToMany keeps one key per link, `__order.<field>.<target>`).
import { isTargetRelation, type ContentType, type Registry } from '../content-types/index.js';
import { CLAIMS, LINK_ORDER, orderPath, type Models } from '../models/index.js';
import type { OwningLink, StoredObject, WritePlan } from './build.js';
import type { Claim } from './claims.js';
import { entries } from './collection.js';
import { isOrderKey, keyAfter } from './link-order.js';

/** The inverse side of an owning relation attribute, when it has one. */
function inverseOf(registry: Registry, contentType: ContentType, attributeName: string) {
  const attribute = contentType.attributes[attributeName];
  if (!isTargetRelation(attribute) || !attribute.inversedBy) return undefined;
  return registry.relation(attribute.target, attribute.inversedBy);
}

/**
 * The last key of each target's inverse list (keys sort as bytes; entries without one come first),
 * in one aggregation: the keys of the entries linked to the targets, the highest per target.
 */
async function lastKeys(
  models: Models,
  uid: string,
  field: string,
  multiple: boolean,
  targets: number[],
): Promise<Map<number, string>> {
  if (targets.length === 0) return new Map();
  const path = `${LINK_ORDER}.${field}`;
  const pipeline = multiple
    ? [
        { $match: { [field]: { $in: targets } } },
        { $project: { _id: 0, key: { $objectToArray: { $ifNull: [`$${path}`, {}] } } } },
        { $unwind: '$key' },
        { $match: { 'key.k': { $in: targets.map(String) }, 'key.v': { $type: 'string' } } },
        { $group: { _id: '$key.k', last: { $max: '$key.v' } } },
      ]
    : [
        { $match: { [field]: { $in: targets }, [path]: { $type: 'string' } } },
        { $group: { _id: `$${field}`, last: { $max: `$${path}` } } },
      ];
  const rows = await entries(models, uid).aggregate<{ _id: unknown; last: unknown }>(pipeline).toArray();
  const last = new Map<number, string>();
  for (const row of rows) if (isOrderKey(row.last)) last.set(Number(row._id), row.last);
  return last;
}

/**
 * Adds the claim stamps and order keys of the links this write changes (`plan.links`, and the ids
 * `plan.push`/`plan.pull` add and remove) to `plan.set`/`plan.unset` and answers the claims to
 * settle once written. `existing`: the stored entry on update.
 */
export async function resolveOwningLinks(
  models: Models,
  registry: Registry,
  contentType: ContentType,
  plan: WritePlan,
  owner: number,
  existing: StoredObject | null,
  stamp: () => Promise<number>,
): Promise<Claim[]> {
  const claims: Claim[] = [];
  for (const link of plan.links) {
    const inverse = inverseOf(registry, contentType, link.attribute);
    if (!inverse) continue;
    const field = link.attribute;
    const added = link.after.filter((id) => !link.before.includes(id));
    if (!inverse.multiple) {
      claims.push(...(await stampLinks(plan, contentType.uid, link, owner, added, existing, stamp)));
      continue;
    }
    const removed = link.before.filter((id) => !link.after.includes(id));
    if (link.after.length === 0) {
      if (link.before.length > 0 || !link.relation.multiple) plan.unset.push(`${LINK_ORDER}.${field}`);
      continue;
    }
    if (link.relation.multiple) for (const id of removed) plan.unset.push(orderPath(field, true, id));
    await appendKeys(models, contentType.uid, plan, field, link.relation.multiple, added);
  }
  for (const [field, ids] of Object.entries(plan.push))
    if (inverseOf(registry, contentType, field)?.multiple)
      await appendKeys(models, contentType.uid, plan, field, true, ids);
  for (const [field, ids] of Object.entries(plan.pull))
    if (inverseOf(registry, contentType, field)?.multiple)
      for (const id of ids) plan.unset.push(orderPath(field, true, id));
  return claims;
}

/** Order keys for newly linked targets: each at the end of its target's list (a to-one links at most one). */
async function appendKeys(
  models: Models,
  uid: string,
  plan: WritePlan,
  field: string,
  multiple: boolean,
  added: number[],
): Promise<void> {
  const linked = multiple ? added : added.slice(0, 1);
  const last = await lastKeys(models, uid, field, multiple, linked);
  for (const target of linked) plan.set[orderPath(field, multiple, target)] = keyAfter(last.get(target) ?? null);
}

/** Exclusive links: stamp the new ones, keep the stamps of the links that stay. */
async function stampLinks(
  plan: WritePlan,
  uid: string,
  link: OwningLink,
  owner: number,
  added: number[],
  existing: StoredObject | null,
  stamp: () => Promise<number>,
): Promise<Claim[]> {
  const field = link.attribute;
  const previous = (existing?.[CLAIMS] as Record<string, unknown> | undefined)?.[field];
  const value = added.length > 0 ? await stamp() : 0;
  if (link.relation.multiple) {
    const kept = typeof previous === 'object' && previous !== null ? (previous as Record<string, unknown>) : {};
    const stamps = Object.fromEntries(
      link.after
        .map((id) => [String(id), added.includes(id) ? value : kept[String(id)]])
        .filter(([, v]) => v !== undefined),
    );
    plan.set[`${CLAIMS}.${field}`] = stamps;
  } else if (link.after.length === 0) plan.unset.push(`${CLAIMS}.${field}`);
  else if (added.length > 0) plan.set[`${CLAIMS}.${field}`] = value;
  return added.map((target) => ({ uid, field, multiple: link.relation.multiple, owner, target, stamp: value }));
}
