// Strapi v4 relation input: an id, null, an array of ids, or `{ connect, disconnect, set }` whose
// entries are ids or `{ id }` objects; a connect entry may carry `position` (`before`/`after` an
// id, `start`, `end`), otherwise it goes to the end.
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';
import { isPlainObject } from './payload.js';

export type ConnectPosition = { before: number } | { after: number } | { start: true } | { end: true };

export interface ConnectItem {
  id: number;
  position?: ConnectPosition;
}

/** `set`: replace the whole relation; `patch`: disconnect then connect (in order). */
export type RelationInput =
  { kind: 'set'; ids: number[] } | { kind: 'patch'; connect: ConnectItem[]; disconnect: number[] };

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

function toPosition(value: unknown): ConnectPosition | undefined | null {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return null;
  if (value.before !== undefined) {
    const id = toId(value.before);
    return id === undefined ? null : { before: id };
  }
  if (value.after !== undefined) {
    const id = toId(value.after);
    return id === undefined ? null : { after: id };
  }
  if (value.start === true) return { start: true };
  if (value.end === true) return { end: true };
  return null;
}

function toConnectItems(value: unknown): ConnectItem[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  const items: ConnectItem[] = [];
  for (const entry of list) {
    const id = toId(entry);
    const position = isPlainObject(entry) ? toPosition(entry.position) : undefined;
    if (id === undefined || position === null) return undefined;
    items.push(position ? { id, position } : { id });
  }
  return items;
}

/** Parses the input of one relation attribute; a to-one keeps at most one id. */
export function parseRelationInput(value: unknown, multiple: boolean, path: string[]): RelationInputResult {
  const bad: RelationInputResult = { ok: false, issues: [issue(path, messages.relation(path))] };
  if (value === null) return { ok: true, input: { kind: 'set', ids: [] } };
  if (isPlainObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    if (value.set !== undefined) {
      const ids = value.set === null ? [] : toIds(value.set);
      if (!ids || (!multiple && ids.length > 1)) return bad;
      return { ok: true, input: { kind: 'set', ids } };
    }
    const connect = value.connect === undefined || value.connect === null ? [] : toConnectItems(value.connect);
    const disconnect = value.disconnect === undefined || value.disconnect === null ? [] : toIds(value.disconnect);
    if (!connect || !disconnect || (!multiple && connect.length > 1)) return bad;
    return { ok: true, input: { kind: 'patch', connect, disconnect } };
  }
  if (Array.isArray(value) && !multiple && value.length > 1) return bad;
  const ids = toIds(value);
  if (!ids) return bad;
  return { ok: true, input: { kind: 'set', ids } };
}

/**
 * The ids after applying `input` to `current` (connection order kept; a to-one keeps the last),
 * or null when a position names an id that is not connected.
 */
export function applyRelationInput(current: number[], input: RelationInput): number[] | null {
  if (input.kind === 'set') return [...input.ids];
  const ids = current.filter((id) => !input.disconnect.includes(id));
  for (const { id, position } of input.connect) {
    const at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1);
    if (!position || 'end' in position) {
      ids.push(id);
      continue;
    }
    if ('start' in position) {
      ids.unshift(id);
      continue;
    }
    const anchor = ids.indexOf('before' in position ? position.before : position.after);
    if (anchor < 0) return null;
    ids.splice('before' in position ? anchor : anchor + 1, 0, id);
  }
  return ids;
}

/** Every id the input names as a target (those must exist). */
export function referencedIds(input: RelationInput): number[] {
  return input.kind === 'set' ? input.ids : input.connect.map((item) => item.id);
}
