// The database lifecycle hooks of Strapi v4 around one write: `before<Action>` may change
// `event.params.data` (what is stored) or throw (nothing is written); `after<Action>` sees the
// entry as the database layer answers it (flat, no relations) and the state its before-hook left.
import { UNRESTRICTED, readEntry, type PlainEntry } from '../query/index.js';
import { ValidationError } from '../errors/index.js';
import type { ServiceContext } from '../service-context.js';
import { isPlainObject, type WriteData } from './payload.js';

export type WriteAction = 'Create' | 'Update' | 'Delete';

export interface HookedWrite {
  action: WriteAction;
  uid: string;
  params: Record<string, unknown>;
  /** the entry's id when known before the write (update, delete) */
  id?: number;
}

function readForHook(ctx: ServiceContext, uid: string, id: number): Promise<PlainEntry | null> {
  return readEntry(
    { ...ctx, access: UNRESTRICTED },
    uid,
    { _id: id },
    { publicationState: 'preview' },
    { style: 'plain' },
  );
}

/** `params.data` after the before-hooks: still an object, or a 400. */
export function hookedData(params: Record<string, unknown>): WriteData {
  if (!isPlainObject(params.data)) throw new ValidationError('Missing "data" payload in the request body');
  return params.data;
}

/**
 * Runs `write` between the before- and after-hooks of `action`; answers the written entry's id.
 * A delete's result is read before it happens.
 */
export async function withLifecycles(
  ctx: ServiceContext,
  hooked: HookedWrite,
  write: (params: Record<string, unknown>) => Promise<number>,
): Promise<number> {
  const { lifecycles } = ctx;
  const { action, uid, params } = hooked;
  const after = `after${action}`;
  const states = lifecycles.listens(`before${action}`, uid)
    ? await lifecycles.run(`before${action}`, uid, { params })
    : undefined;
  const listensAfter = lifecycles.listens(after, uid);
  const deleted =
    listensAfter && action === 'Delete' && hooked.id !== undefined ? await readForHook(ctx, uid, hooked.id) : null;
  const id = await write(params);
  await ctx.credentials.afterWriteOf(uid);
  if (listensAfter) {
    const result = action === 'Delete' ? deleted : await readForHook(ctx, uid, id);
    await lifecycles.run(after, uid, { params, result }, states);
  }
  return id;
}
