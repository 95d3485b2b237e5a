/**
 * The params of Strapi's entity service reads (`fields`, `filters`, `populate`, `sort`, `locale`,
 * `publicationState`, `_q`, `start`/`limit`, `page`/`pageSize`) in the REST query shape the read path
 * takes: shared by `strapi.entityService` and the upload plugin's service, which reads through it.
 */
import { PaginationError } from '../errors/index.js';

type Params = Record<string, unknown>;

/**
 * `page` and `pageSize` of `findPage`, checked as Strapi's params conversion checks them (its
 * messages; the one of `pageSize` names the page it was given with, as Strapi's does).
 */
export function pageParams({ page, pageSize, start, limit }: Params): { page: number; pageSize: number } {
  const given = (value: unknown) => value !== undefined && value !== null;
  if ((given(page) || given(pageSize)) && (given(start) || given(limit)))
    throw new PaginationError(
      'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
    );
  const positive = (value: unknown) => Number.isInteger(Number(value)) && Number(value) > 0;
  if (given(page) && !positive(page))
    throw new PaginationError(`Invalid 'page' parameter. Expected an integer > 0, received: ${String(page)}`);
  if (given(pageSize) && !positive(pageSize))
    throw new PaginationError(`Invalid 'pageSize' parameter. Expected an integer > 0, received: ${String(page)}`);
  return { page: given(page) ? Number(page) : 1, pageSize: given(pageSize) ? Number(pageSize) : 10 };
}

/** What a read asks, in the REST query shape the read path takes (`paginate`: `start`/`limit` apply). */
export function entityReadQuery(params: Params, paginate: boolean): Params {
  const { fields, filters, populate, sort, locale, publicationState, start, limit, _q } = params;
  const query: Params = { publicationState: publicationState ?? 'preview' };
  for (const [key, value] of Object.entries({ fields, filters, populate, sort, locale, _q }))
    if (value !== undefined) query[key] = value;
  const all = limit === undefined || limit === -1 || limit === '-1';
  if (paginate && (!all || start !== undefined))
    query.pagination = { start: start ?? 0, ...(all ? {} : { limit }), withCount: false };
  return query;
}
