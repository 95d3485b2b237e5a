/**
 * `fileInfo` of an upload (Strapi's yup schema, non-strict): `{ name, alternativeText, caption }`,
 * each a string or null (numbers and booleans are cast to strings); one object, or an array with
 * one object per file when several files are sent. In a multipart body it arrives as JSON text,
 * which yup's object cast parses. Other keys are ignored: the content API's body schema says
 * `noUnknown()`, but its cast (not strict) strips unknown keys before that test runs.
 * The upload service itself (app code, and the content API's controller after it chose the folder)
 * also takes `folder`, the id of a Media Library folder.
 */
import { ValidationError } from '../../errors/index.js';
import { isPlainObject, issue, messages } from '../../write/index.js';

export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
  /** the folder the file goes into (the upload service's callers; never the client's) */
  folder?: number | null;
}

/** `folder` as Strapi's file service reads it: an id, or nothing (the root). */
function readFolder(raw: unknown, path: string[]): number | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const id = typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : raw;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  const at = [...path, 'folder'];
  throw ValidationError.forPath(at, messages.typeError(at, 'number', raw, raw));
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

function readOne(value: unknown, path: string[], withFolder: boolean): FileInfo {
  const cast = fromJsonText(value, 'object');
  if (cast === undefined) return {};
  if (!isPlainObject(cast)) {
    const original = Object.is(cast, value) ? cast : value;
    throw ValidationError.forPath(path, messages.typeError(path, 'object', cast, original));
  }
  const info: FileInfo = {};
  const problems = [];
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
  if (withFolder && cast.folder !== undefined) info.folder = readFolder(cast.folder, path);
  return info;
}

/**
 * The info of each of `count` files (an object for one file, an array for several); `folder` kept
 * only `withFolder` (the service's callers: a client's is stripped as Strapi's body schema does).
 */
export function readFileInfo(raw: unknown, count: number, { withFolder = false } = {}): FileInfo[] {
  if (count <= 1) return [readOne(raw, ['fileInfo'], withFolder)];
  const cast = fromJsonText(raw, 'array');
  if (cast === undefined) return Array.from({ length: count }, () => ({}));
  if (!Array.isArray(cast)) {
    const original = Object.is(cast, raw) ? cast : raw;
    throw ValidationError.forPath(['fileInfo'], messages.typeError(['fileInfo'], 'array', cast, original));
  }
  return Array.from({ length: count }, (_, i) => readOne(cast[i], ['fileInfo', String(i)], withFolder));
}
