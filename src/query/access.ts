/**
 * What the caller of a read may see, passed down through every level of a query. Built by the
 * REST/GraphQL layer from the request (users-permissions decides `canRead`).
 */
export interface QueryAccess {
  /** whether the caller may `find` entries of this content-type (populate, deep filters and sort through relations need it) */
  canRead(uid: string): boolean;
  /**
   * private attributes (a user's password hash, its tokens) may be selected and filtered on: the
   * app's own code reading through Strapi's entity service or query engine, never a client
   */
  readsPrivate?: boolean;
}

/** Everything may be read: for internal calls (seeding, CLI, after-write reads by trusted code). */
export const UNRESTRICTED: QueryAccess = { canRead: () => true };

/** The app's own code (Strapi's entity service and query engine): everything, private attributes too. */
export const APP_CODE: QueryAccess = { canRead: () => true, readsPrivate: true };
