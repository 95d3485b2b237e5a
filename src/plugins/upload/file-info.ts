/**
 * `fileInfo` of an upload (Strapi's yup schema, non-strict): `{ name, alternativeText, caption }`,
 * each a string or null (numbers and booleans are cast to strings); one object, or an array with
 * one object per file when several files are sent. In a multipart body it arrives as JSON text,
 * which yup's object cast parses. The upload service takes other keys and ignores them; the
 * content API's body validation (`noUnknown()`) refuses them.
 */
import { ValidationError } from '../../errors/index.js';
import { isPlainObject, issue, messages } from '../../write/index.js';

export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
}

const KEYS = ['name', 'alternativeText', 'caption'] as const;

function fromJsonText(value: unknown, want: 'object' | 'array'): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (want === 'array' ? Array.isArray(parsed) : isPlainObject(parsed)) return parsed;
  } catch {
    // yup's cast gives null for text that is not JSON of the wanted kind
  }
  return null;
}

/** Whether keys other than `name`, `alternativeText`, `caption` are refused (the content API's check). */
type UnknownKeys = 'ignore' | 'refuse';

function readOne(value: unknown, path: string[], unknownKeys: UnknownKeys): FileInfo {
  const cast = fromJsonText(value, 'object');
  if (cast === undefined) return {};
  if (!isPlainObject(cast)) {
    const original = Object.is(cast, value) ? cast : value;
    throw ValidationError.forPath(path, messages.typeError(path, 'object', cast, original));
  }
  const info: FileInfo = {};
  const problems = [];
  const unknown = Object.keys(cast).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknownKeys === 'refuse' && unknown.length > 0) problems.push(issue(path, messages.noUnknown(path, unknown)));
  for (const key of KEYS) {
    const raw = cast[key];
    if (raw === undefined) continue;
    const text = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    if (text !== null && typeof text !== 'string') {
      const at = [...path, key];
      problems.push(issue(at, messages.typeError(at, 'string', text, raw)));
      continue;
    }
    info[key] = text;
  }
  if (problems.length > 0) throw ValidationError.fromIssues(problems);
  return info;
}

/** The info of each of `count` files (an object for one file, an array for several), as the upload service takes it. */
export function readFileInfo(raw: unknown, count: number): FileInfo[] {
  return readInfos(raw, count, 'ignore');
}

/** The same, as `POST /api/upload` validates its body: a key the schema does not name is a 400. */
export function validateFileInfoBody(raw: unknown, count: number): FileInfo[] {
  return readInfos(raw, count, 'refuse');
}

function readInfos(raw: unknown, count: number, unknownKeys: UnknownKeys): FileInfo[] {
  if (count <= 1) return [readOne(raw, ['fileInfo'], unknownKeys)];
  const cast = fromJsonText(raw, 'array');
  if (cast === undefined) return Array.from({ length: count }, () => ({}));
  if (!Array.isArray(cast)) {
    const original = Object.is(cast, raw) ? cast : raw;
    throw ValidationError.forPath(['fileInfo'], messages.typeError(['fileInfo'], 'array', cast, original));
  }
  return Array.from({ length: count }, (_, i) => readOne(cast[i], ['fileInfo', String(i)], unknownKeys));
}
