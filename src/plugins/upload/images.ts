/**
 * Image work with sharp, as Strapi's image-manipulation service: dimensions, optimisation (quality
 * 80 re-encode kept only when smaller; EXIF rotation), the `thumbnail` (245x156, fit inside) and
 * one responsive format per breakpoint smaller than the image. Outputs keep the input's format.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { ApplicationError } from '../../errors/index.js';
import type { UploadSettings } from './config.js';

/** Formats sharp reads that count as images (dimensions are stored). */
const PROCESSED = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
/** Formats re-encoded by `sizeOptimization` / `autoOrientation`. */
const OPTIMIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);
/** Formats that get a thumbnail and responsive formats. */
const RESIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
/** Claimed types sharp should be able to read: such a file that it cannot read is refused. */
const IMAGE_MIMES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/tiff',
  'image/svg+xml',
  'image/gif',
  'image/avif',
]);

export const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 } as const;

export interface ImageVariant {
  /** `thumbnail`, `large`, `medium`, `small` (prefix of its name and hash) */
  key: string;
  path: string;
  width: number;
  height: number;
  /** in bytes */
  size: number;
}

export interface PreparedImage {
  /** the bytes to store (the optimised copy when that is smaller) */
  path: string;
  size: number;
  width: number | null;
  height: number | null;
  variants: ImageVariant[];
}

async function formatOf(path: string): Promise<string | null> {
  try {
    return (await sharp(path).metadata()).format ?? null;
  } catch {
    return null;
  }
}

async function isReadable(path: string): Promise<boolean> {
  try {
    await sharp(path).stats();
    return true;
  } catch {
    return false;
  }
}

async function dimensions(path: string): Promise<{ width: number | null; height: number | null }> {
  const { width, height } = await sharp(path).metadata();
  return { width: width ?? null, height: height ?? null };
}

type Encoder = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

async function optimize(
  source: { path: string; size: number },
  format: string,
  settings: UploadSettings,
  target: string,
): Promise<{ path: string; size: number }> {
  if (!OPTIMIZED.has(format) || !(settings.sizeOptimization || settings.autoOrientation)) return source;
  let pipeline = sharp(source.path)[format as Encoder]({ quality: settings.sizeOptimization ? 80 : 100 });
  if (settings.autoOrientation) pipeline = pipeline.rotate();
  const info = await pipeline.toFile(target);
  return info.size > source.size ? source : { path: target, size: info.size };
}

async function resize(
  path: string,
  key: string,
  box: { width: number; height: number },
  target: string,
): Promise<ImageVariant> {
  // an output path without extension keeps the input's format
  const info = await sharp(path)
    .resize({ ...box, fit: 'inside' })
    .toFile(target);
  return { key, path: target, width: info.width, height: info.height, size: info.size };
}

/**
 * Null when the file is not an image sharp handles (it is then stored as it is). A file whose
 * type says it is such an image but that sharp cannot decode is Strapi's 400.
 */
export async function prepareImage(
  file: { path: string; size: number; mime: string; hash: string },
  settings: UploadSettings,
  workDir: string,
): Promise<PreparedImage | null> {
  const format = await formatOf(file.path);
  if (!format || !PROCESSED.has(format)) {
    if (IMAGE_MIMES.has(file.mime)) throw new ApplicationError('File is not a valid image');
    return null;
  }
  if (!(await isReadable(file.path))) throw new ApplicationError('File is not a valid image');
  const stored = await optimize(file, format, settings, join(workDir, `optimized-${file.hash}`));
  const { width, height } = await dimensions(stored.path);
  const variants: ImageVariant[] = [];
  if (RESIZED.has(format) && width !== null && height !== null) {
    if (width > THUMBNAIL.width || height > THUMBNAIL.height)
      variants.push(await resize(stored.path, THUMBNAIL.key, THUMBNAIL, join(workDir, `thumbnail_${file.hash}`)));
    if (settings.responsiveDimensions) {
      for (const [key, bound] of Object.entries(settings.breakpoints)) {
        if (bound < width || bound < height)
          variants.push(
            await resize(stored.path, key, { width: bound, height: bound }, join(workDir, `${key}_${file.hash}`)),
          );
      }
    }
  }
  return { ...stored, width, height, variants };
}
