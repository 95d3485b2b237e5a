/**
 * What the caller of a read may see, passed down through every level of a query. Built by the
 * REST/GraphQL layer from the request (users-permissions decides `canRead`).
 */
export interface QueryAccess {
  /** whether the caller may `find` entries of this content-type (populate, deep filters and sort through relations need it) */
  canRead(uid: string): boolean;
}

/** Everything may be read: for internal calls (seeding, CLI, after-write reads by trusted code). */
export const UNRESTRICTED: QueryAccess = { canRead: () => true };
