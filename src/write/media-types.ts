// A media attribute's `allowedTypes` (Strapi's Media Library kinds), checked on every write that
// sets media ids and on uploads attached to an entry: `images`, `videos`, `audios` by the MIME
// type's top-level type, `files` for anything else. No (or an empty) list allows everything.
import { UPLOAD_FILE_UID, type MediaAttribute } from '../content-types/index.js';
import type { ValidationIssue } from '../errors/index.js';
import type { Models } from '../models/index.js';
import type { MediaTypeCheck } from './build.js';
import { entries } from './collection.js';
import { issue, pathLabel } from './messages.js';

const KIND_OF_TOP_TYPE: Record<string, string> = { image: 'images', video: 'videos', audio: 'audios' };

/** `images`, `videos`, `audios` or `files`. */
export function mediaKind(mime: string): string {
  return KIND_OF_TOP_TYPE[mime.split('/')[0] ?? ''] ?? 'files';
}

export function allowsMime(attribute: MediaAttribute, mime: string): boolean {
  const allowed = attribute.allowedTypes;
  return !allowed || allowed.length === 0 || allowed.includes(mediaKind(mime));
}

/** The message of a file the attribute does not accept. */
export function notAllowedMessage(attribute: MediaAttribute, path: string, file: string, mime: string): string {
  return `${path} accepts only ${(attribute.allowedTypes ?? []).join(', ')}: ${file} is ${mime}`;
}

/** One issue per file a media attribute of the write does not accept (the files exist: checked before). */
export async function mediaTypeIssues(models: Models, checks: MediaTypeCheck[]): Promise<ValidationIssue[]> {
  if (checks.length === 0) return [];
  const ids = [...new Set(checks.flatMap((check) => check.ids))];
  const files = await entries(models, UPLOAD_FILE_UID)
    .find({ _id: { $in: ids } }, { projection: { mime: 1 } })
    .toArray();
  const mimeOf = new Map(files.map((file) => [file._id, typeof file.mime === 'string' ? file.mime : '']));
  const issues: ValidationIssue[] = [];
  for (const check of checks) {
    for (const id of check.ids) {
      const mime = mimeOf.get(id);
      if (mime !== undefined && !allowsMime(check.attribute, mime))
        issues.push(issue(check.path, notAllowedMessage(check.attribute, pathLabel(check.path), `file ${id}`, mime)));
    }
  }
  return issues;
}
