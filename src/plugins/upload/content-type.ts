/**
 * The MIME type of an uploaded file, from its bytes (magic numbers, `file-type`) rather than from
 * what the client claims. The name's extension and the part's Content-Type must agree with the
 * content; a claimed type that has a signature the content lacks (a text file named `.png`) is
 * refused too. Text formats without a signature (txt, csv, svg, json…) keep the claimed type.
 */
import { extname } from 'node:path';
import { fileTypeFromFile, supportedMimeTypes } from 'file-type';
import mime from 'mime-types';
import { ValidationError } from '../../errors/index.js';
import type { IncomingFile } from './multipart.js';

const UNKNOWN = 'application/octet-stream';

interface Detected {
  ext: string;
  mime: string;
}

function extensionsOf(mimeType: string): string[] {
  return mime.extensions[mimeType] ?? [];
}

function extensionAgrees(ext: string, detected: Detected): boolean {
  return ext === detected.ext || mime.lookup(ext) === detected.mime || extensionsOf(detected.mime).includes(ext);
}

function mimeAgrees(claimed: string, detected: Detected): boolean {
  return claimed === detected.mime || extensionsOf(claimed).includes(detected.ext);
}

function mismatch(file: IncomingFile, claimed: string, actual: string | null): ValidationError {
  const is = actual ? `is ${actual}, not ${claimed}` : `is not ${claimed}`;
  return new ValidationError(`The content of ${file.filename} ${is}`);
}

/** The part's Content-Type without parameters, or '' when it says nothing (`application/octet-stream`). */
function declaredType(file: IncomingFile): string {
  const type = file.declaredMime.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === UNKNOWN ? '' : type;
}

/** The file's MIME type; a 400 when its name or declared type lies about its content. */
export async function checkedMimeType(file: IncomingFile): Promise<string> {
  const ext = extname(file.filename).slice(1).toLowerCase();
  const extMime = ext ? mime.lookup(ext) || '' : '';
  const declared = declaredType(file);
  const detected = await fileTypeFromFile(file.path);
  if (detected) {
    if (extMime && !extensionAgrees(ext, detected)) throw mismatch(file, extMime, detected.mime);
    if (declared && !mimeAgrees(declared, detected)) throw mismatch(file, declared, detected.mime);
    return detected.mime;
  }
  for (const claimed of [extMime, declared]) {
    if (claimed && supportedMimeTypes.has(claimed)) throw mismatch(file, claimed, null);
  }
  return declared || extMime || UNKNOWN;
}
