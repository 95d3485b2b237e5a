import { isTargetRelation } from './attributes.js';
import type { SchemaNotice } from './notices.js';
import { SchemaError } from './schema-error.js';
import type { ContentType, RelationAttribute } from './types.js';

/** Relation kinds Strapi v4 still wires up when both sides say `inversedBy`: each side is an owner. */
const BOTH_OWNING_KINDS = new Set(['manyToMany', 'oneToOne']);

/**
 * A relation declared `inversedBy` on both sides. Strapi v4's database layer makes each side an
 * owner in turn, in model order, and each owner points the other side at its own join table: the
 * side registered last wins, so both sides read and write that side's links (and Strapi warns to
 * rename the other side's `inversedBy` to `mappedBy`). The same happens here: the side that comes
 * later (plugin types before api types, api types in folder order, attributes in schema order)
 * stores the ids, and the other side becomes its `mappedBy` side. Rewrites the attributes in place.
 */
export function settleBothSidesInversedBy(contentTypes: ContentType[], notices: SchemaNotice[]): void {
  const order = new Map<string, number>();
  contentTypes.forEach((ct, i) => {
    Object.keys(ct.attributes).forEach((name, j) => order.set(`${ct.uid}:${name}`, i * 100_000 + j));
  });
  const byUid = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  for (const ct of contentTypes) {
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if (!isTargetRelation(attr) || !attr.inversedBy) continue;
      const target = byUid.get(attr.target);
      const other = target?.attributes[attr.inversedBy];
      if (!target || !isTargetRelation(other) || !other.inversedBy) continue;
      if (other.target !== ct.uid || other.inversedBy !== name) continue;
      if (!BOTH_OWNING_KINDS.has(attr.relation) || other.relation !== attr.relation) {
        throw new SchemaError(
          ct.source,
          `${attr.relation} "${name}" and ${target.uid} "${attr.inversedBy}" both declare inversedBy; ` +
            `replace "inversedBy" with "mappedBy" on the side that does not own the relation`,
          name,
        );
      }
      const mine = order.get(`${ct.uid}:${name}`) ?? 0;
      const theirs = order.get(`${target.uid}:${attr.inversedBy}`) ?? 0;
      if (mine > theirs) continue; // this side owns the links; the other side is rewritten when it is visited
      ct.attributes[name] = asMappedBy(attr);
      notices.push({
        level: 'info',
        message:
          `${ct.source} (attribute "${name}"): ${attr.relation} declared inversedBy on both sides; ` +
          `${target.uid}.${attr.inversedBy} stores the links and "${name}" reads them (as Strapi v4 does)`,
      });
    }
  }
}

function asMappedBy(attr: RelationAttribute): RelationAttribute {
  const { inversedBy, ...rest } = attr;
  return { ...rest, mappedBy: inversedBy };
}
