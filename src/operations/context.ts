import type { QueryAccess } from '../query/access.js';
import type { ServiceContext } from '../service-context.js';

/** A service context plus what the caller may read. */
export interface OperationContext extends ServiceContext {
  access: QueryAccess;
}

/** The qs-parsed query string of a request (or its equivalent built by GraphQL). */
export type RawQuery = Record<string, unknown>;

/** Strapi v4's `{ id, attributes }` entry, attributes already formatted for the response. */
export interface FormattedEntry {
  id: number;
  attributes: Record<string, unknown>;
}

export interface EntryResponse {
  data: FormattedEntry | null;
  meta: Record<string, unknown>;
}

export interface CollectionResponse {
  data: FormattedEntry[];
  meta: Record<string, unknown>;
}
