// Strapi v4 relation input: an id, null, an array of ids, or `{ connect, disconnect, set, options }`
// whose entries are ids or `{ id }` objects; a connect entry may carry `position` (`before`/`after`
// an id, `start`, `end`), otherwise it goes to the end.
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';
import { isPlainObject } from './payload.js';

export type ConnectPosition = { before: number } | { after: number } | { start: true } | { end: true };

export interface ConnectItem {
  id: number;
  position?: ConnectPosition;
  /** the position as the client wrote it (Strapi's messages quote it whole) */
  positionText?: string;
}

/** `set`: replace the whole relation; `patch`: disconnect then connect (in order). */
export type RelationInput =
  | { kind: 'set'; ids: number[] }
  | {
      kind: 'patch';
      connect: ConnectItem[];
      disconnect: number[];
      /** `options.strict` (default true): a position naming an entry that is not connected is an error */
      strict: boolean;
      /** two connect entries for one id that are not the same value (Strapi only drops exact repeats) */
      repeated: number | null;
    };

export type RelationInputResult = { ok: true; input: RelationInput } | { ok: false; issues: ValidationIssue[] };

function toId(value: unknown): number | undefined {
  const raw = isPlainObject(value) ? value.id : value;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && /^[1-9]\d*$/.test(raw)) return Number(raw);
  return undefined;
}

function toIds(value: unknown): number[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  const ids: number[] = [];
  for (const entry of list) {
    const id = toId(entry);
    if (id === undefined) return undefined;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * `disconnect` ids: Strapi 4.26 takes any number or numeric text (`0`, `-1`, `"1.5"`, as `{ id }`
 * too) and removes the links they match, which for what no entry can have is none; those are
 * dropped here. Anything else is no id (undefined).
 */
function toDisconnectIds(value: unknown): number[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).filter((entry) => entry !== null);
  const ids: number[] = [];
  for (const entry of list) {
    const raw = isPlainObject(entry) ? entry.id : entry;
    const numeric = (typeof raw === 'number' && Number.isFinite(raw)) || (typeof raw === 'string' && NUMERIC.test(raw));
    if (!numeric) return undefined;
    const id = toId(raw);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * A connect position read as Strapi's orderer reads it: `before`, then `after`, then `start` when
 * truthy, anything else (no object, `{}`, `{ start: false }`) is the end; null: an anchor that is no id.
 */
function toPosition(value: unknown): ConnectPosition | undefined | null {
  if (!isPlainObject(value)) return undefined;
  for (const side of ['before', 'after'] as const) {
    if (!value[side]) continue;
    const id = toId(value[side]);
    if (id === undefined) return null;
    return side === 'before' ? { before: id } : { after: id };
  }
  if (value.start) return { start: true };
  return { end: true };
}

/** JSON with sorted keys: two connect entries are "the same" when lodash's isEqual would say so. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

interface ConnectList {
  items: ConnectItem[];
  repeated: number | null;
}

/**
 * Strapi v4 drops connect entries that are exact repeats (an id given twice as the same value) and
 * remembers an id given twice in different forms (`3` and `{ id: 3 }`), which it refuses later.
 */
function toConnectItems(value: unknown): ConnectList | undefined {
  const list = Array.isArray(value) ? value : [value];
  const items: ConnectItem[] = [];
  const seen = new Set<string>();
  let repeated: number | null = null;
  for (const entry of list) {
    const id = toId(entry);
    const position = isPlainObject(entry) ? toPosition(entry.position) : undefined;
    if (id === undefined || position === null) return undefined;
    const key = canonical(isPlainObject(entry) ? entry : { id: entry, __pivot: {} });
    if (seen.has(key)) continue;
    seen.add(key);
    if (repeated === null && items.some((item) => item.id === id)) repeated = id;
    items.push(
      position && isPlainObject(entry) ? { id, position, positionText: JSON.stringify(entry.position) } : { id },
    );
  }
  return { items, repeated };
}

const PATCH_KEYS = ['connect', 'disconnect', 'set', 'options'];

/** Strapi reads `options.strict` as its default parameter would: only a falsy value other than undefined turns it off. */
function readStrict(options: unknown): boolean {
  const strict = isPlainObject(options) ? options.strict : undefined;
  return strict === undefined ? true : Boolean(strict);
}

/** Parses the input of one relation attribute; a to-one keeps at most one id. */
export function parseRelationInput(value: unknown, multiple: boolean, path: string[]): RelationInputResult {
  const bad: RelationInputResult = { ok: false, issues: [issue(path, messages.relation(path))] };
  const several: RelationInputResult = { ok: false, issues: [issue(path, messages.toOne(path))] };
  if (value === null) return { ok: true, input: { kind: 'set', ids: [] } };
  const empty = isPlainObject(value) && Object.keys(value).length === 0;
  if (empty || (isPlainObject(value) && PATCH_KEYS.some((key) => key in value))) {
    // Strapi reads `set` only when it is truthy (`set: null` leaves the relation as it is), and
    // `connect`/`set` only as lists; nulls inside `disconnect` are skipped, ids no entry can have too
    if (value.set !== undefined && value.set !== null) {
      const ids = Array.isArray(value.set) ? toIds(value.set) : undefined;
      if (!ids) return bad;
      if (!multiple && ids.length > 1) return several;
      return { ok: true, input: { kind: 'set', ids } };
    }
    const connect =
      value.connect === undefined || value.connect === null
        ? { items: [], repeated: null }
        : Array.isArray(value.connect)
          ? toConnectItems(value.connect)
          : undefined;
    const disconnect =
      value.disconnect === undefined || value.disconnect === null ? [] : toDisconnectIds(value.disconnect);
    if (!connect || !disconnect) return bad;
    if (!multiple && connect.items.length > 1) return several;
    const strict = readStrict(value.options);
    return {
      ok: true,
      input: { kind: 'patch', connect: connect.items, disconnect, strict, repeated: connect.repeated },
    };
  }
  if (Array.isArray(value) && !multiple && value.length > 1) return several;
  const ids = toIds(value);
  if (!ids) return bad;
  return { ok: true, input: { kind: 'set', ids } };
}

/**
 * Why a relation input failed to parse, read as Strapi's relation check reads it (the `connect`
 * list, else the `set` list, else the value as a list) when it is one of these: `unknown` lists
 * the ids no entry can have (`"abc"`, `1.5`, `0`, `{ id: null }`: Strapi looks them up and reports
 * them missing), `invalidLists` a list that is none or holds `null` or an object without `id`
 * (Strapi's check fails reading it: "Invalid relations"). Null for any other malformed input.
 */
export type UnreadableRelation =
  { kind: 'unknown'; ids: (string | number | null)[]; valid: number[] } | { kind: 'invalidLists' };

const isIdValue = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

function checkedList(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value) && PATCH_KEYS.some((key) => key in value)) return value.connect ?? value.set ?? [];
  return [value];
}

export function unreadableRelation(value: unknown): UnreadableRelation | null {
  const list = checkedList(value);
  if (!Array.isArray(list)) return { kind: 'invalidLists' };
  const ids: (string | number | null)[] = [];
  const valid: number[] = [];
  for (const entry of list) {
    if (entry === null || entry === undefined) return { kind: 'invalidLists' };
    const raw = isPlainObject(entry) ? entry.id : Array.isArray(entry) ? undefined : entry;
    if (raw === undefined) return { kind: 'invalidLists' };
    if (raw !== null && !isIdValue(raw)) return null;
    const id = raw === null ? undefined : toId(raw);
    if (id !== undefined) valid.push(id);
    else if (!ids.includes(raw)) ids.push(raw);
  }
  return ids.length > 0 ? { kind: 'unknown', ids, valid } : null;
}

/** The ids after applying an input, or the message of Strapi's InvalidRelationError (a 400). */
export type RelationOutcome = { ok: true; ids: number[] } | { ok: false; message: string };

const anchorOf = (item: ConnectItem): number | undefined =>
  item.position && 'before' in item.position
    ? item.position.before
    : item.position && 'after' in item.position
      ? item.position.after
      : undefined;

const positionText = (item: ConnectItem): string => item.positionText ?? JSON.stringify(item.position);

class ConnectError extends Error {}

/**
 * Strapi's `sortConnectArray`: connect entries whose anchor is another connect entry are applied
 * after that one; an anchor that is neither connected nor connected by this request is an error
 * when strict, otherwise the entry goes to the end.
 */
function connectOrder(connect: ConnectItem[], connected: Set<number>, strict: boolean): ConnectItem[] {
  const byId = new Map(connect.map((item) => [item.id, item]));
  const needsSorting = connect.some((item, i) => {
    const anchor = anchorOf(item);
    return anchor === undefined || (!connected.has(anchor) && !connect.slice(0, i).some((c) => c.id === anchor));
  });
  if (!needsSorting) return connect;
  const sorted: ConnectItem[] = [];
  const done = new Set<number>();
  const visit = (item: ConnectItem, branch: Set<number>): void => {
    const anchor = anchorOf(item);
    if (anchor !== undefined && branch.has(anchor))
      throw new ConnectError(
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
      );
    if (done.has(item.id)) return;
    done.add(item.id);
    if (anchor === undefined || connected.has(anchor)) {
      sorted.push(item);
      return;
    }
    const anchorItem = byId.get(anchor);
    if (anchorItem) {
      visit(anchorItem, new Set(branch).add(item.id));
      sorted.push(item);
    } else if (strict) {
      throw new ConnectError(
        `There was a problem connecting relation with id ${item.id} at position ${positionText(item)}. The relation with id ${anchor} needs to be connected first.`,
      );
    } else {
      sorted.push({ id: item.id, position: { end: true } });
    }
  };
  connect.forEach((item) => visit(item, new Set()));
  return sorted;
}

/**
 * The ids after applying `input` to `current` (connection order kept). `ordered`: the relation keeps
 * an order (a to-many side), so connect positions and Strapi's connect checks apply; a to-one keeps
 * the last id connected.
 */
export function applyRelationInput(current: number[], input: RelationInput, ordered: boolean): RelationOutcome {
  if (input.kind === 'set') return { ok: true, ids: [...input.ids] };
  const connectIds = input.connect.map((item) => item.id);
  const ids = current.filter((id) => !input.disconnect.includes(id) || connectIds.includes(id));
  if (!ordered) {
    const last = input.connect.at(-1);
    return { ok: true, ids: last ? [last.id] : ids };
  }
  if (input.repeated !== null)
    return {
      ok: false,
      message: `The relation with id ${input.repeated} is already connected. You cannot connect the same relation twice.`,
    };
  try {
    for (const item of connectOrder(input.connect, new Set(ids), input.strict)) {
      const { id, position } = item;
      const at = ids.indexOf(id);
      if (at >= 0) ids.splice(at, 1);
      if (!position || 'end' in position) ids.push(id);
      else if ('start' in position) ids.unshift(id);
      else {
        const anchor = ids.indexOf('before' in position ? position.before : position.after);
        if (anchor < 0)
          throw new ConnectError(
            `There was a problem connecting relation with id ${id} at position ${positionText(item)}. The list of connect relations is not valid`,
          );
        ids.splice('before' in position ? anchor : anchor + 1, 0, id);
      }
    }
  } catch (error) {
    if (error instanceof ConnectError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, ids };
}

/** A new entry's relation: Strapi always checks connect positions strictly on create. */
export function strictOnCreate(input: RelationInput): RelationInput {
  return input.kind === 'patch' ? { ...input, strict: true } : input;
}

/** Every id the input names as a target (those must exist). */
export function referencedIds(input: RelationInput): number[] {
  return input.kind === 'set' ? input.ids : input.connect.map((item) => item.id);
}
