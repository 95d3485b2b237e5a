import type { Document } from 'mongodb';
import { isPrivate, isScalar, ROLE_UID, USER_UID } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { OperationContext, RawQuery } from '../../operations/index.js';
import { compileFilters } from '../../query/filters/index.js';
import { compileSort } from '../../query/sort/index.js';
import { sanitizeUser, type UserDoc } from './users.js';
import { collectionOf } from './collections.js';

const invalid = (name: string) => new ValidationError(`Invalid parameter ${name}`);

function nonNegativeInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw invalid(name);
  return n;
}

/** `fields`: names of readable scalar attributes of the user (never a private one). */
function selectedFields(ctx: OperationContext, raw: unknown): Set<string> | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : Object.values(raw as object);
  const ct = ctx.registry.contentType(USER_UID);
  const fields = new Set<string>();
  for (const item of list) {
    const name = typeof item === 'string' ? item.trim() : '';
    const attribute = ct?.attributes[name];
    if (name === 'id') continue;
    if (!attribute || isPrivate(attribute) || !isScalar(attribute)) throw invalid(name || 'fields');
    fields.add(name);
  }
  return fields;
}

/** `populate`: only the user's `role` can be populated, and only for callers that may read roles. */
function populatesRole(raw: unknown): boolean {
  if (raw === undefined) return false;
  const names = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : Object.keys(raw as object);
  let role = false;
  for (const name of names) {
    if (name === 'role' || name === '*') role = true;
    else throw invalid(typeof name === 'string' ? name : 'populate');
  }
  return role;
}

interface RoleDoc {
  _id: number;
  name: string;
  description?: string | null;
  type: string;
  createdAt?: Date;
  updatedAt?: Date;
}

/**
 * `GET /api/users`: Strapi v4 answers a bare array; `filters` and `sort` go through the shared query
 * compiler (private attributes and unreadable relations are refused there), `start`/`limit` are
 * top-level (`pagination[...]` is ignored, as in Strapi).
 */
export async function findUsers(ctx: OperationContext, query: RawQuery): Promise<Record<string, unknown>[]> {
  const { registry, access } = ctx;
  const start = nonNegativeInteger('start', query.start) ?? 0;
  const limit = nonNegativeInteger('limit', query.limit);
  const fields = selectedFields(ctx, query.fields);
  const withRole = populatesRole(query.populate) && access.canRead(ROLE_UID);

  const pipeline: Document[] = [];
  if (query.filters !== undefined)
    pipeline.push(...compileFilters({ registry, uid: USER_UID, filters: query.filters, access }));
  const sorting =
    query.sort !== undefined ? compileSort({ registry, uid: USER_UID, sort: query.sort, access }) : undefined;
  if (sorting) pipeline.push(...sorting.lookups);
  const order: Record<string, 1 | -1> = { ...(sorting?.sort ?? {}) };
  if (!('_id' in order)) order._id = 1;
  pipeline.push({ $sort: order });
  if (start > 0) pipeline.push({ $skip: start });
  if (limit !== undefined) pipeline.push({ $limit: limit });
  if (sorting) pipeline.push(...sorting.cleanup);
  if (withRole) {
    pipeline.push({
      $lookup: {
        from: registry.contentType(ROLE_UID)?.collectionName ?? 'up_roles',
        localField: 'role',
        foreignField: '_id',
        as: '__role',
      },
    });
  }

  const docs = await collectionOf(ctx, USER_UID).aggregate<UserDoc & { __role?: RoleDoc[] }>(pipeline).toArray();
  return docs.map((doc) => {
    const user = sanitizeUser(ctx, doc);
    const out: Record<string, unknown> = fields
      ? Object.fromEntries(Object.entries(user).filter(([k]) => k === 'id' || fields.has(k)))
      : user;
    if (withRole) {
      const role = doc.__role?.[0];
      out.role = role
        ? {
            id: role._id,
            name: role.name,
            description: role.description ?? null,
            type: role.type,
            createdAt: role.createdAt?.toISOString() ?? null,
            updatedAt: role.updatedAt?.toISOString() ?? null,
          }
        : null;
    }
    return out;
  });
}

/**
 * `GET /api/users/count`: Strapi v4 passes the query string as a `where`, so only plain equality on
 * readable scalar attributes is accepted here (`?confirmed=true`); anything else (`filters[...]`,
 * which Strapi answers with a 500) is a 400.
 */
export async function countUsers(ctx: OperationContext, query: RawQuery): Promise<number> {
  const ct = ctx.registry.contentType(USER_UID);
  const match: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const attribute = ct?.attributes[name];
    if (!attribute || isPrivate(attribute) || !isScalar(attribute) || typeof value !== 'string') throw invalid(name);
    if (attribute.type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw invalid(name);
      match[name] = value === 'true';
    } else if (attribute.type === 'string' || attribute.type === 'email' || attribute.type === 'text') {
      match[name] = attribute.type === 'email' ? value.toLowerCase() : value;
    } else {
      throw invalid(name);
    }
  }
  return collectionOf(ctx, USER_UID).countDocuments(match);
}
