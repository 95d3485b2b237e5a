// What an entry's own owning relations store besides their ids: the claim stamp of a link whose
// inverse is to-one (claims.ts), and the position in the target's list of a to-one whose inverse
// is a to-many (link-order.ts: a newly linked entry goes to the end of that list, as in Strapi).
import type { ContentType, Registry } from '../content-types/index.js';
import { CLAIMS, LINK_ORDER, inverseOrderPath, type Models } from '../models/index.js';
import type { OwningLink, StoredObject, WritePlan } from './build.js';
import type { Claim } from './claims.js';
import { entries } from './collection.js';
import { isOrderKey, keyAfter } from './link-order.js';

/** The inverse side of an owning relation attribute, when it has one. */
function inverseOf(registry: Registry, contentType: ContentType, link: OwningLink) {
  const attribute = contentType.attributes[link.attribute];
  if (attribute?.type !== 'relation' || !attribute.inversedBy) return undefined;
  return registry.relation(attribute.target, attribute.inversedBy);
}

/** The last key of a target's inverse list (keys sort as bytes; entries without one come first). */
async function lastKey(models: Models, uid: string, field: string, target: number): Promise<string | null> {
  const path = `${LINK_ORDER}.${field}`;
  const last = await entries(models, uid)
    .find({ [field]: target, [path]: { $type: 'string' } }, { projection: { [path]: 1 } })
    .sort({ [path]: -1 })
    .limit(1)
    .toArray();
  const value = (last[0]?.[LINK_ORDER] as Record<string, unknown> | undefined)?.[field];
  return isOrderKey(value) ? value : null;
}

/**
 * Adds the claim stamps and order keys of `plan.links` to `plan.set`/`plan.unset` and answers the
 * claims to settle once written. `existing`: the stored entry on update.
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
    const inverse = inverseOf(registry, contentType, link);
    if (!inverse) continue;
    const field = link.attribute;
    const added = link.after.filter((id) => !link.before.includes(id));
    if (!inverse.multiple) {
      // exclusive: stamp the new links, keep the stamps of the links that stay
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
      for (const target of added)
        claims.push({ uid: contentType.uid, field, multiple: link.relation.multiple, owner, target, stamp: value });
      continue;
    }
    const path = inverseOrderPath(inverse);
    if (!path) continue;
    if (link.after.length === 0) plan.unset.push(path);
    else if (added.length > 0) plan.set[path] = keyAfter(await lastKey(models, contentType.uid, field, added[0]));
  }
  return claims;
}
