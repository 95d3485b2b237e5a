import { BSON } from 'bson';
import { freezeDeep } from '../bson/freeze.js';
import type { Doc } from '../bson/types.js';

/**
 * Decoded aggregation stages by their bytes. A service sends the same stages again and again (a
 * populate's `$lookup`s and `$project` are most of a one-entry read's command, byte for byte the
 * same on every request): each is decoded once and the same frozen object handed out again, so
 * what the engine derives from a stage and keeps by its identity (a compiled projection, a
 * `$lookup`'s parsed specification) is derived once too. Frozen, so nothing can change a stage
 * another command will read; what belongs to one command is kept per command (`PipelineEnv.joinMemos`).
 */

/** Stages smaller than this are decoded each time: cheap, and often unique (a `$match` on one id). */
const MIN_CACHED_BYTES = 96;
const MAX_ENTRIES = 512;
const MAX_TOTAL_BYTES = 4 * 1024 * 1024;

/** Least recently used first (a Map iterates in insertion order; a hit moves its entry last). */
const cached = new Map<string, Doc>();
let cachedBytes = 0;

/** Counters for the tests and benchmarks. */
export const stageCacheStats = { hits: 0, misses: 0 };

/** The stage encoded in `bytes` (one BSON document), decoded with `options`. */
export function decodeStage(bytes: Uint8Array, options: BSON.DeserializeOptions): Doc {
  if (bytes.length < MIN_CACHED_BYTES) return BSON.deserialize(bytes, options) as Doc;
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const hit = cached.get(key);
  if (hit) {
    stageCacheStats.hits++;
    cached.delete(key);
    cached.set(key, hit);
    return hit;
  }
  stageCacheStats.misses++;
  const stage = BSON.deserialize(bytes, options) as Doc;
  freezeDeep(stage);
  cached.set(key, stage);
  cachedBytes += key.length;
  for (const [oldest] of cached) {
    if (cached.size <= MAX_ENTRIES && cachedBytes <= MAX_TOTAL_BYTES) break;
    cached.delete(oldest);
    cachedBytes -= oldest.length;
  }
  return stage;
}
