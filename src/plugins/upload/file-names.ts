/**
 * File names as Strapi's upload service treats them: a name holding a path separator, a reserved
 * character or a reserved device name is refused; the stored name is `<slug>_<10 hex>` (the
 * `hash`), where the slug is the base name slugified with `_` and its case kept.
 */
import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';
import slugify from '@sindresorhus/slugify';
import mime from 'mime-types';
import { ApplicationError } from '../../errors/index.js';

const RESERVED_CHARACTERS = /[<>:"/\\|?*\u0000-\u001F]/;
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

export function isValidFilename(name: string): boolean {
  if (name === '' || name.length > 255) return false;
  if (RESERVED_CHARACTERS.test(name) || RESERVED_NAMES.test(name)) return false;
  return name !== '.' && name !== '..';
}

export function assertValidFilename(name: string): void {
  if (!isValidFilename(name)) throw new ApplicationError('File name contains invalid characters');
}

/**
 * The extension of the sent name (`.png`), or the one of its type when the name has none (or one
 * that could not be part of a stored file name, e.g. `report.final draft`).
 */
export function fileExtension(filename: string, mimeType: string): string {
  const ext = extname(filename);
  if (/^\.[A-Za-z0-9]{1,16}$/.test(ext)) return ext;
  const fromType = mime.extension(mimeType);
  return fromType ? `.${fromType}` : '';
}

/** `My Photo (1)` → `My_Photo_1_3f2a9c01be`: unique, and safe as a stored file name. */
export function fileHash(usedName: string, ext: string): string {
  // slugify 2+ drops apostrophes ("it's" → "its"); Strapi 4.26's (1.1) parts the words there ("it_s")
  const words = basename(usedName, ext).replace(/['\u2019]/g, ' ');
  const slug = slugify(words, { separator: '_', lowercase: false });
  return `${slug}_${randomBytes(5).toString('hex')}`;
}
