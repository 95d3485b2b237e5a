// What an entry's own owning relations store besides their ids: the claim stamp of a link whose
// inverse is to-one (claims.ts), and the position in the target's list of a link whose inverse is
// a to-many (link-order.ts: a newly linked entry goes to the end of that list, as in Strapi; a
// manyToMany keeps one key per link, `__order.<field>.<target>`).
import { isTargetRelation, type ContentType, type Registry } from '../content-types/index.js';
import { CLAIMS, LINK_ORDER, orderPath, type Models } from '../models/index.js';
import type { OwningLink, StoredObject, WritePlan } from './build.js';
import type { Claim } from './claims.js';
import { appendedKey } from './link-order.js';

/** The inverse side of an owning relation attribute, when it has one. */
function inverseOf(registry: Registry, contentType: ContentType, attributeName: string) {
  const attribute = contentType.attributes[attributeName];
  if (!isTargetRelation(attribute) || !attribute.inversedBy) return undefined;
  return registry.relation(attribute.target, attribute.inversedBy);
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
  const appends: Append[] = [];
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
    appends.push({
      field,
      multiple: link.relation.multiple,
      targets: link.relation.multiple ? added : added.slice(0, 1),
    });
  }
  for (const [field, ids] of Object.entries(plan.push))
    if (inverseOf(registry, contentType, field)?.multiple) appends.push({ field, multiple: true, targets: ids });
  await appendKeys(models, plan, appends);
  for (const [field, ids] of Object.entries(plan.pull))
    if (inverseOf(registry, contentType, field)?.multiple)
      for (const id of ids) plan.unset.push(orderPath(field, true, id));
  return claims;
}

/** Targets newly linked through one field, to put at the end of their lists. */
interface Append {
  field: string;
  multiple: boolean;
  targets: number[];
}

/**
 * Order keys for newly linked targets: each at the end of its target's list, from the shared
 * append counter rather than from the list's last key, which would mean reading every entry of
 * the list (a tag's thousands of articles) for each write. One counter command for all the
 * write's fields.
 */
async function appendKeys(models: Models, plan: WritePlan, appends: Append[]): Promise<void> {
  const keys = await appendedKeys(
    models,
    appends.reduce((n, append) => n + append.targets.length, 0),
  );
  let next = 0;
  for (const { field, multiple, targets } of appends)
    for (const target of targets) plan.set[orderPath(field, multiple, target)] = keys[next++] as string;
}

/** `count` order keys at the end of every list, in order (link-order.ts, appendedKey). */
export async function appendedKeys(models: Models, count: number): Promise<string[]> {
  if (count === 0) return [];
  const first = await models.counters.next(APPENDED_LINKS, count);
  return Array.from({ length: count }, (_, i) => appendedKey(first + i));
}

/** The counter of links appended to inverse lists (link-order.ts, appendedKey). */
const APPENDED_LINKS = 'link-order';

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
