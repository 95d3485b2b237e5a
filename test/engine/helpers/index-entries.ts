import type { SecondaryIndex } from '../../../src/engine/storage/secondary-index.js';

/** An index's entries as `[key, _id]` pairs, in order. */
export function entriesOf(index: SecondaryIndex): Array<[unknown, unknown]> {
  const out: Array<[unknown, unknown]> = [];
  index.entries.scan(0, index.entries.size, 1, (key, doc) => {
    out.push([key, doc._id]);
    return true;
  });
  return out;
}
