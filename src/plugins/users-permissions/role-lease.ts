// One writer at a time per role, across every service instance on the database: replacing a
// role's permissions is several writes (delete those not wanted, add those missing), and two
// replacements interleaved would leave the union of both sets, permissions nobody asked for.
import { randomUUID } from 'node:crypto';
import { ROLE_UID } from '../../content-types/index.js';
import { ConflictError, NotFoundError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { collectionOf } from './collections.js';

/** A field of the role's own document: `{ owner, until }` while a writer holds it. */
const LEASE = '__lease';
/** how long a lease holds when its writer dies before giving it back (a crash, a kill -9) */
const LEASE_MS = 10_000;
/** how long a writer waits for the lease before answering 409 */
const WAIT_MS = 15_000;

/**
 * Runs `work` while holding role `roleId`'s lease. A role deleted meanwhile (its document, and so
 * its lease, gone) is a 404 `Role not found`; a lease not freed within the wait, a 409.
 */
export async function withRoleLease<T>(ctx: ServiceContext, roleId: number, work: () => Promise<T>): Promise<T> {
  const roles = collectionOf<{ _id: number }>(ctx, ROLE_UID);
  const owner = randomUUID();
  const started = Date.now();
  for (let round = 0; ; round++) {
    const now = Date.now();
    const taken = await roles.updateOne(
      { _id: roleId, $or: [{ [LEASE]: { $exists: false } }, { [`${LEASE}.until`]: { $lt: now } }] },
      { $set: { [LEASE]: { owner, until: now + LEASE_MS } } },
    );
    if (taken.matchedCount === 1) break;
    if ((await roles.countDocuments({ _id: roleId }, { limit: 1 })) === 0) throw new NotFoundError('Role not found');
    if (now - started > WAIT_MS) throw new ConflictError('The role is being changed by other requests, try again');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** round)));
  }
  try {
    return await work();
  } finally {
    await roles.updateOne({ _id: roleId, [`${LEASE}.owner`]: owner }, { $unset: { [LEASE]: '' } });
  }
}
