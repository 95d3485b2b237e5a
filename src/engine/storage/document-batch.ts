import { isPlainObject, type Doc } from '../bson/types.js';

/**
 * Documents of a snapshot, in batches encoded for fast loading: the documents as one JSON text
 * (V8's JSON.parse builds objects several times faster than a BSON decoder written in JavaScript,
 * and loading is mostly building objects), plus the values JSON cannot carry — dates, int64,
 * ObjectId, Decimal128, binary, -0, NaN, ±Infinity... — by path, kept as BSON values in the
 * record around the batch. JSON.stringify keeps every such value at its place (as some JSON value
 * that decoding then replaces), so field order survives; `undefined` is left out, as BSON does.
 */
export interface DocumentBatch {
  json: string;
  /**
   * `[index of the document, ...keys]` of each value JSON cannot carry, as one JSON text (parsed
   * natively: a BSON array per path cost more to decode than the documents' own JSON); snapshots
   * written before keep them as a BSON array of paths, which is still read.
   */
  paths: string | Path[];
  values: unknown[];
}

type Path = Array<string | number>;

export function encodeBatch(docs: readonly Doc[]): DocumentBatch {
  const paths: Path[] = [];
  const values: unknown[] = [];
  const path: Path = [];
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) {
        paths.push(path.slice());
        values.push(value);
      }
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(value[i]);
        path.pop();
      }
      return;
    }
    if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        path.push(key);
        visit(value[key]);
        path.pop();
      }
      return;
    }
    paths.push(path.slice());
    values.push(value);
  };
  docs.forEach((doc, i) => {
    path.push(i);
    visit(doc);
    path.pop();
  });
  return { json: JSON.stringify(docs), paths: JSON.stringify(paths), values };
}

export function decodeBatch(batch: DocumentBatch): Doc[] {
  const docs = JSON.parse(batch.json) as Doc[];
  const paths = typeof batch.paths === 'string' ? (JSON.parse(batch.paths) as Path[]) : batch.paths;
  // equal dates share one Date (96 bytes each; `createdAt`, `updatedAt` and `publishedAt` are often
  // equal): stored documents are never modified in place, and copies made to modify one clone dates
  const dates = new Map<number, Date>();
  paths.forEach((path, i) => {
    let value = batch.values[i];
    if (value instanceof Date) {
      const time = value.getTime();
      const same = dates.get(time);
      if (same) value = same;
      else dates.set(time, value);
    }
    let target: unknown = docs;
    for (let k = 0; k < path.length - 1; k++) target = (target as Record<string | number, unknown>)[path[k] as string];
    (target as Record<string | number, unknown>)[path[path.length - 1] as string] = value;
  });
  return docs;
}
