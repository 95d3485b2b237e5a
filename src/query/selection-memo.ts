import type { QueryAccess } from './access.js';
import type { PipelineStage } from './filters/index.js';
import type { EntrySelection } from './read-tree.js';

/**
 * A read's parsed selection (`fields`, `populate`) and the stages planned from it, kept per query
 * shape so that the same read asked again (every `GET /api/articles/:id?populate=*`) is not parsed
 * and planned again. What a selection depends on besides the query is the service's schemas and
 * settings (fixed for the memo's lifetime: one memo per registry) and the caller's read access: an
 * entry records every `canRead` its parse asked with the answer, and is used only while the
 * caller's access gives the same answers (a role changed, another token: parsed again). The
 * parsed objects are shared between requests: nothing downstream writes into them.
 */
export interface MemoizedSelection {
  selection: EntrySelection;
  /** the populate `$lookup` stages and the final `$project` stage, planned once (constant: frozen) */
  planned?: { stages: PipelineStage[]; project: PipelineStage };
}

interface Entry extends MemoizedSelection {
  reads: Array<[uid: string, allowed: boolean]>;
}

/** Query shapes kept at most; past it the memo starts again (a client sending endless shapes costs only their parse). */
const MAX_ENTRIES = 500;
/** Longer shapes are parsed every time (rare, and their keys would cost memory). */
const MAX_KEY_LENGTH = 2_000;

export class SelectionMemo {
  private readonly entries = new Map<string, Entry>();

  /**
   * The memoized selection of `key` for `access`, or the one `parse` makes (with an access that
   * records what it was asked), kept when `key` is one.
   */
  selection(
    key: string | undefined,
    access: QueryAccess,
    parse: (access: QueryAccess) => EntrySelection,
  ): MemoizedSelection {
    if (key === undefined) return { selection: parse(access) };
    const kept = this.entries.get(key);
    if (kept && kept.reads.every(([uid, allowed]) => access.canRead(uid) === allowed)) return kept;
    const reads: Entry['reads'] = [];
    const recording: QueryAccess = {
      canRead: (uid) => {
        const allowed = access.canRead(uid);
        reads.push([uid, allowed]);
        return allowed;
      },
      readsPrivate: access.readsPrivate,
    };
    const entry: Entry = { selection: parse(recording), reads };
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, entry);
    return entry;
  }
}

/**
 * The memo key of a read's selection: its publication state, whether private attributes are
 * readable, and `fields` and `populate` written out; undefined (not memoized) for anything but
 * what a query string or a JSON body holds (strings, numbers, booleans, null, arrays, plain
 * objects without symbol keys: internal callers mark populate entries with symbols) or a long one.
 */
export function selectionKey(
  state: string,
  readsPrivate: boolean | undefined,
  fields: unknown,
  populate: unknown,
): string | undefined {
  const parts: string[] = [state, readsPrivate ? 'p' : '-'];
  if (!writeValue(fields, parts) || !writeValue(populate, parts)) return undefined;
  const key = parts.join('');
  return key.length > MAX_KEY_LENGTH ? undefined : key;
}

function writeValue(value: unknown, out: string[]): boolean {
  switch (typeof value) {
    case 'undefined':
      out.push('u');
      return true;
    case 'string':
      out.push(JSON.stringify(value));
      return true;
    case 'number':
    case 'boolean':
      out.push(`#${String(value)}`);
      return true;
    case 'object': {
      if (value === null) {
        out.push('n');
        return true;
      }
      if (Array.isArray(value)) {
        out.push('[');
        for (const item of value) if (item === undefined || !writeValue(item, out)) return false;
        out.push(']');
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(value).length > 0)
        return false;
      out.push('{');
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) return false;
        out.push(JSON.stringify(k), ':');
        if (!writeValue(v, out)) return false;
      }
      out.push('}');
      return true;
    }
    default:
      return false;
  }
}
