// Pipeline stages a read plans once and sends again and again (the populate `$lookup`s and the
// `$project` of a memoized selection: query/selection-memo.ts) are marked constant here: frozen,
// so nothing can change them after their BSON is made, which the wire reads then encode once.
import type { Document } from 'mongodb';
import { freezeDeep } from '../engine/bson/freeze.js';

/** Constant stages, with their BSON once it is made. */
const constantStages = new WeakMap<object, Uint8Array | null>();

/** Freezes `stage` (its plain objects and arrays, deeply) and marks it constant; returns it. */
export function constantStage<T extends Document>(stage: T): T {
  freezeDeep(stage);
  if (!constantStages.has(stage)) constantStages.set(stage, null);
  return stage;
}

/** The BSON of `stage`: made once for a constant stage, by `encode` every time for any other. */
export function stageBytes(stage: Document, encode: (stage: Document) => Uint8Array): Uint8Array {
  const kept = constantStages.get(stage);
  if (kept) return kept;
  const bytes = encode(stage);
  if (kept === null) constantStages.set(stage, bytes);
  return bytes;
}
