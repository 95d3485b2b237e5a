// The links a polymorphic (`morphToOne`/`morphToMany`) attribute is given, as Strapi 4.26's
// database layer reads them: a list of `{ __type, id }` (or `{ set: [...] }`, or one such object)
// replaces the stored list, exact repeats kept once; `null` empties it. A morphToOne takes one
// object or null. Links to types the caller may not read are dropped from a list, and the list
// left out when none is left (Strapi's removeRestrictedRelations); what Strapi's database layer
// cannot store (no `__type` or `id`: its Error, a 500) or would store dangling (an unknown type,
// a missing entry, `connect`) is a 400 here (docs/strapi-deviations.md).
import type { MorphAttribute, Registry } from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import { issue } from './messages.js';
import { isPlainObject } from './payload.js';

/** One stored link of a polymorphic attribute (docs/ARCHITECTURE.md, storage layout). */
export interface MorphLink {
  __type: string;
  id: number;
}

export type MorphInput =
  | { ok: true; links: MorphLink[] | MorphLink | null }
  | { ok: false; issues: ValidationIssue[] }
  /** every link named a type the caller may not read: the attribute is left as it is */
  | { ok: 'dropped' };

export interface MorphInputContext {
  registry: Registry;
  canRelate: (uid: string) => boolean;
}

export function parseMorphInput(
  ctx: MorphInputContext,
  attribute: MorphAttribute,
  value: unknown,
  at: string[],
): MorphInput {
  const many = attribute.relation === 'morphToMany';
  if (value === null) return { ok: true, links: many ? [] : null };
  if (!many) {
    const link = morphLink(ctx, value, at);
    return 'issue' in link ? { ok: false, issues: [link.issue] } : { ok: true, links: link };
  }
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.set)
      ? value.set
      : isPlainObject(value) && 'id' in value
        ? [value]
        : null;
  if (list === null)
    return {
      ok: false,
      issues: [
        issue(at, `${at.join('.')} must be a list of { __type, id } (connect and disconnect are not supported here)`),
      ],
    };
  const issues: ValidationIssue[] = [];
  const links: MorphLink[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const link = morphLink(ctx, item, [...at, String(i)]);
    if ('issue' in link) {
      issues.push(link.issue);
      return;
    }
    const key = `${link.__type} ${link.id}`;
    if (seen.has(key) || !ctx.canRelate(link.__type)) return;
    seen.add(key);
    links.push(link);
  });
  if (issues.length > 0) return { ok: false, issues };
  if (links.length === 0 && list.length > 0) return { ok: 'dropped' };
  return { ok: true, links };
}

function morphLink(ctx: MorphInputContext, value: unknown, at: string[]): MorphLink | { issue: ValidationIssue } {
  const path = at.join('.');
  if (!isPlainObject(value) || !('__type' in value) || !('id' in value))
    return { issue: issue(at, `${path} must be an object with "__type" (a content-type uid) and "id"`) };
  const type = value.__type;
  if (typeof type !== 'string' || !ctx.registry.contentType(type))
    return { issue: issue(at, `${path}.__type must name a content-type, got ${JSON.stringify(type)}`) };
  const id = typeof value.id === 'string' && /^\d+$/.test(value.id) ? Number(value.id) : value.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    return { issue: issue(at, `${path}.id must be an entry id, got ${JSON.stringify(value.id)}`) };
  return { __type: type, id };
}
