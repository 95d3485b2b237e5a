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
  /**
   * JSON text of `[string, ...paths]` for each string found more than once in the batch (longer
   * than V8's JSON.parse shares by itself): decoding puts one copy of it at each path.
   */
  strings?: string;
}

/** JSON.parse gives equal strings of up to 10 characters one copy; longer ones get one each. */
const SHARED_BY_PARSE = 10;
/** Longer strings are seldom repeated (text, slugs): not worth a look-up each. */
const SHARED_AT_MOST = 64;

type Path = Array<string | number>;

export function encodeBatch(docs: readonly Doc[]): DocumentBatch {
  const paths: Path[] = [];
  const values: unknown[] = [];
  const path: Path = [];
  const strings = new Map<string, Path[]>();
  // a lone document (a journaled write) seldom repeats a string: not worth a path per string
  const shareStrings = docs.length > 1;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (shareStrings && value.length > SHARED_BY_PARSE && value.length <= SHARED_AT_MOST) {
        const at = strings.get(value);
        if (at) at.push(path.slice());
        else strings.set(value, [path.slice()]);
      }
      return;
    }
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
  const repeated: Array<[string, ...Path[]]> = [];
  for (const [value, at] of strings) if (at.length > 1) repeated.push([value, ...at]);
  const batch: DocumentBatch = { json: JSON.stringify(docs), paths: JSON.stringify(paths), values };
  if (repeated.length > 0) batch.strings = JSON.stringify(repeated);
  return batch;
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
    put(docs, path, value);
  });
  if (batch.strings) {
    // equal strings share one copy (the documents' own copies are left to the GC)
    for (const [value, ...at] of JSON.parse(batch.strings) as Array<[string, ...Path[]]>)
      for (const path of at) put(docs, path, value);
  }
  return docs;
}

function put(docs: Doc[], path: Path, value: unknown): void {
  let target: unknown = docs;
  for (let k = 0; k < path.length - 1; k++) target = (target as Record<string | number, unknown>)[path[k] as string];
  (target as Record<string | number, unknown>)[path[path.length - 1] as string] = value;
}
