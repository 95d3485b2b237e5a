// Strapi v4 relation input: an id, null, an array of ids, or `{ connect, disconnect, set }` whose
// entries are ids or `{ id }` objects (`position` is accepted and ignored: new links are appended).
import type { ValidationIssue } from '../errors/index.js';
import { issue, messages } from './messages.js';
import { isPlainObject } from './payload.js';

/** `set`: replace the whole relation; `patch`: disconnect then connect. */
export type RelationInput =
  | { kind: 'set'; ids: number[] }
  | { kind: 'patch'; connect: number[]; disconnect: number[] };

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
    const connect = value.connect === undefined || value.connect === null ? [] : toIds(value.connect);
    const disconnect = value.disconnect === undefined || value.disconnect === null ? [] : toIds(value.disconnect);
    if (!connect || !disconnect || (!multiple && connect.length > 1)) return bad;
    return { ok: true, input: { kind: 'patch', connect, disconnect } };
  }
  if (Array.isArray(value) && !multiple && value.length > 1) return bad;
  const ids = toIds(value);
  if (!ids) return bad;
  return { ok: true, input: { kind: 'set', ids } };
}

/** The ids after applying `input` to `current` (connection order kept; a to-one keeps the last). */
export function applyRelationInput(current: number[], input: RelationInput): number[] {
  if (input.kind === 'set') return [...input.ids];
  const kept = current.filter((id) => !input.disconnect.includes(id) && !input.connect.includes(id));
  return [...kept, ...input.connect];
}

/** Every id the input names as a target (those must exist). */
export function referencedIds(input: RelationInput): number[] {
  return input.kind === 'set' ? input.ids : input.connect;
}
