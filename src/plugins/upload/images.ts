/**
 * `strapi.plugin('upload').service('image-manipulation')` as Strapi 4.26 has it, with sharp, on the
 * upload service's file data (its `filepath`, else its `buffer` or `getStream()`): `getDimensions`,
 * `isImage` / `isOptimizableImage` / `isResizableImage` / `isFaultyImage` (`isSupportedImage`,
 * deprecated, is `isOptimizableImage`), `optimize` (quality 80 re-encode kept only when smaller;
 * EXIF rotation), `generateThumbnail` (245x156, fit inside) and `generateResponsiveFormats` (one
 * per breakpoint smaller than the image). New files go to the file's `tmpWorkingDirectory` and keep
 * the input's format.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { ValidationError } from '../../errors/index.js';
import { bytesOf, numberOf, streamOf, textOf, workDirOf, type FileData } from './file-data.js';
import { bytesToKbytes } from './sizes.js';

/** Formats sharp reads that count as images (dimensions are stored). */
const PROCESSED = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
/** Formats re-encoded by `sizeOptimization` / `autoOrientation`. */
const OPTIMIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);
/** Formats that get a thumbnail and responsive formats. */
const RESIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
/** Types sharp should be able to read: such a file that it cannot read is refused. */
export const IMAGE_MIMES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/tiff',
  'image/svg+xml',
  'image/gif',
  'image/avif',
]);

export const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 } as const;

/** The Media Library switches Strapi keeps in its store (`getSettings()`), and the breakpoints of the config. */
export interface ImageSettings {
  sizeOptimization: boolean;
  responsiveDimensions: boolean;
  autoOrientation: boolean;
  breakpoints: Record<string, number>;
}

export interface ResponsiveFormat {
  key: string;
  file: FileData;
}

export interface ImageManipulationService {
  isSupportedImage(file: FileData): Promise<boolean>;
  isFaultyImage(file: FileData): Promise<boolean>;
  isOptimizableImage(file: FileData): Promise<boolean>;
  isResizableImage(file: FileData): Promise<boolean>;
  isImage(file: FileData): Promise<boolean>;
  getDimensions(file: FileData): Promise<{ width: number | null; height: number | null }>;
  generateResponsiveFormats(file: FileData): Promise<Array<ResponsiveFormat | undefined>>;
  generateThumbnail(file: FileData): Promise<FileData | null>;
  optimize(file: FileData): Promise<FileData>;
}

/** The key of a format file made here (`thumbnail`, `large`...), which its provider upload is told. */
const formatKeys = new WeakMap<object, string>();
export function formatKeyOf(file: FileData): string | undefined {
  return formatKeys.get(file);
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** What sharp reads the file from: its path, else its bytes. */
async function sharpInput(file: FileData): Promise<string | Buffer> {
  const path = textOf(file, 'filepath');
  if (path !== undefined) return path;
  if (Buffer.isBuffer(file.buffer)) return file.buffer;
  const stream = streamOf(file);
  if (!stream) throw new ValidationError('image-manipulation: the file needs its filepath, buffer or getStream()');
  return toBuffer(stream);
}

async function formatOf(file: FileData): Promise<string | null> {
  try {
    return (await sharp(await sharpInput(file)).metadata()).format ?? null;
  } catch {
    return null;
  }
}

const nameAndHash = (file: FileData) => ({ name: textOf(file, 'name') ?? '', hash: textOf(file, 'hash') ?? 'file' });

async function resizeFileTo(file: FileData, key: string, box: { width: number; height: number }): Promise<FileData> {
  const { name, hash } = nameAndHash(file);
  const target = join(workDirOf(file, 'image-manipulation'), `${key}_${hash}`);
  // an output path without extension keeps the input's format
  const info = await sharp(await sharpInput(file))
    .resize({ ...box, fit: 'inside' })
    .toFile(target);
  const made: FileData = {
    name: `${key}_${name}`,
    hash: `${key}_${hash}`,
    ext: file.ext,
    mime: file.mime,
    filepath: target,
    path: file.path ?? null,
    getStream: () => createReadStream(target),
    width: info.width,
    height: info.height,
    size: bytesToKbytes(info.size),
    sizeInBytes: info.size,
  };
  formatKeys.set(made, key);
  return made;
}

type Encoder = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

export function createImageManipulationService(settings: () => ImageSettings): ImageManipulationService {
  const isIn = (formats: Set<string>) => async (file: FileData) => {
    const format = await formatOf(file);
    return format !== null && formats.has(format);
  };
  const isOptimizableImage = isIn(OPTIMIZED);
  const getDimensions: ImageManipulationService['getDimensions'] = async (file) => {
    const { width, height } = await sharp(await sharpInput(file)).metadata();
    return { width: width ?? null, height: height ?? null };
  };
  return {
    isSupportedImage: isOptimizableImage,
    isOptimizableImage,
    isResizableImage: isIn(RESIZED),
    isImage: isIn(PROCESSED),
    async isFaultyImage(file) {
      try {
        await sharp(await sharpInput(file)).stats();
        return false;
      } catch {
        return true;
      }
    },
    getDimensions,
    async optimize(file) {
      const { sizeOptimization, autoOrientation } = settings();
      const format = await formatOf(file);
      if (format === null || !OPTIMIZED.has(format) || !(sizeOptimization || autoOrientation)) return file;
      const target = join(workDirOf(file, 'image-manipulation'), `optimized-${nameAndHash(file).hash}`);
      const input = await sharpInput(file);
      let pipeline = sharp(input)[format as Encoder]({ quality: sizeOptimization ? 80 : 100 });
      if (autoOrientation) pipeline = pipeline.rotate();
      const info = await pipeline.toFile(target);
      const before = typeof input === 'string' ? (await stat(input)).size : input.length;
      // a re-encode that came out larger is not kept (Strapi compares with sharp's idea of the size)
      if (info.size > (before || bytesOf(file))) return file;
      return {
        ...file,
        filepath: target,
        getStream: () => createReadStream(target),
        width: info.width,
        height: info.height,
        size: bytesToKbytes(info.size),
        sizeInBytes: info.size,
      };
    },
    async generateThumbnail(file) {
      const width = numberOf(file, 'width') ?? 0;
      const height = numberOf(file, 'height') ?? 0;
      if (width <= THUMBNAIL.width && height <= THUMBNAIL.height) return null;
      return resizeFileTo(file, THUMBNAIL.key, THUMBNAIL);
    },
    async generateResponsiveFormats(file) {
      const { responsiveDimensions, breakpoints } = settings();
      if (!responsiveDimensions) return [];
      const { width, height } = await getDimensions(file);
      const formats: Array<ResponsiveFormat | undefined> = [];
      for (const [key, bound] of Object.entries(breakpoints)) {
        const smaller = bound < (width ?? 0) || bound < (height ?? 0);
        formats.push(
          smaller ? { key, file: await resizeFileTo(file, key, { width: bound, height: bound }) } : undefined,
        );
      }
      return formats;
    },
  };
}
