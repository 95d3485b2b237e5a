/** What every answer is checked for besides its status: private data, and writes refused but kept. */
import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import { isPrivate, type Registry } from '../../src/content-types/index.js';

/** Object keys that must never appear in an answer, and values only private attributes hold. */
export function privateMarkers(registry: Registry): { keys: Set<string>; values: RegExp } {
  const privateNames = new Set<string>();
  const publicNames = new Set<string>();
  for (const schema of registry.all())
    for (const [name, attribute] of Object.entries(schema.attributes))
      (isPrivate(attribute) ? privateNames : publicNames).add(name);
  const keys = new Set([...privateNames].filter((name) => !publicNames.has(name)));
  // the seed's private values (internalNotes, secretCode) and bcrypt hashes
  return { keys, values: /internal note \d|code-\d+-secret|^\$2[aby]\$\d\d\$/ };
}

/** Where an answer shows a private key or value (JSON path), or null. */
export function findLeak(body: unknown, markers: { keys: Set<string>; values: RegExp }, path = '$'): string | null {
  if (typeof body === 'string') return markers.values.test(body) ? `${path} = ${body.slice(0, 60)}` : null;
  if (Array.isArray(body)) {
    for (const [i, item] of body.entries()) {
      const found = findLeak(item, markers, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (body !== null && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) {
      // an error message may quote the key a client sent; data never holds a private key
      if (markers.keys.has(key)) return `${path}.${key}`;
      if (key === 'message' || key === 'details') continue;
      const found = findLeak(value, markers, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * A digest of every stored document (id counters and `lastUsedAt` of tokens aside: both move on
 * reads). An empty collection counts as none: the first lease taken creates its collection.
 */
export async function storageDigest(db: Db): Promise<string> {
  const hash = createHash('sha256');
  const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  for (const name of collections) {
    if (name === 'counters') continue;
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    if (docs.length > 0) hash.update(`\0${name}\0`);
    for (const doc of docs) {
      delete doc.lastUsedAt;
      hash.update(JSON.stringify(doc));
    }
  }
  return hash.digest('hex');
}
