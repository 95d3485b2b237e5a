/**
 * `plugins.upload.config`, typed: Strapi v4's keys (`provider`, `providerOptions`, `actionOptions`,
 * `sizeLimit`, `breakpoints`) and defaults. Which provider stores the files is decided in index.ts.
 */
import { resolve } from 'node:path';
import { bodyFileLimit, ConfigError, type ServiceConfig } from '../../config/index.js';

export interface UploadSettings {
  /** largest accepted file, in bytes (Strapi's `sizeLimit`) */
  sizeLimit: number;
  /** the file bytes one multipart request may carry: `strapi::body`'s `formidable.maxFileSize` (config/middlewares) */
  maxFileSize: number;
  /** name → width/height bound of the responsive formats (Strapi's `breakpoints`) */
  breakpoints: Record<string, number>;
  /** the Media Library settings Strapi keeps in its admin store, here in config (same defaults) */
  responsiveDimensions: boolean;
  sizeOptimization: boolean;
  autoOrientation: boolean;
  /** `local` (Strapi's default) or the name of an installed provider package (`aws-s3`, `cloudinary`...) */
  provider: string;
  /** handed to the provider's `init` */
  providerOptions: Record<string, unknown>;
  /** the second argument of each provider method, by method name */
  actionOptions: Record<string, unknown>;
  /** where the local provider writes (`providerOptions.directory`, default `<app>/public/uploads`) */
  directory: string;
  /**
   * the sweep of bytes no record names (local provider) and of replacements left to finish: at
   * start-up and every `intervalMs`; a file goes once it is older than `graceMs` (`sweep: false`: off)
   */
  sweep: { graceMs: number; intervalMs: number } | false;
}

/** Names the file that sets a key of `config/plugins` (`upload.config.…`). */
type FileOf = (key: string) => string;
// Strapi 4.26's default (1 GB); the body parser's 200 MiB applies first to a REST request
export const DEFAULT_SIZE_LIMIT = 1_000_000_000;
/** an upload's bytes and its record are minutes apart at worst: an hour leaves every upload in flight alone */
export const DEFAULT_SWEEP = { graceMs: 3_600_000, intervalMs: 3_600_000 };
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = { large: 1000, medium: 750, small: 500 };

function positiveInteger(fileOf: FileOf, key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(fileOf(key), key, `must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

function flag(fileOf: FileOf, key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigError(fileOf(key), key, 'must be a boolean');
  return value;
}

function record(fileOf: FileOf, key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(fileOf(key), key, 'must be an object');
  return value as Record<string, unknown>;
}

function breakpoints(fileOf: FileOf, value: unknown): Record<string, number> {
  if (value === undefined) return { ...DEFAULT_BREAKPOINTS };
  const raw = record(fileOf, 'upload.config.breakpoints', value);
  return Object.fromEntries(
    Object.entries(raw).map(([name, width]) => [
      name,
      positiveInteger(fileOf, `upload.config.breakpoints.${name}`, width, 0),
    ]),
  );
}

function nonNegativeInteger(fileOf: FileOf, key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new ConfigError(fileOf(key), key, `must be a whole number of milliseconds, got ${JSON.stringify(value)}`);
  return value;
}

function sweep(fileOf: FileOf, value: unknown): UploadSettings['sweep'] {
  if (value === false) return false;
  const raw = record(fileOf, 'upload.config.sweep', value);
  return {
    graceMs: nonNegativeInteger(fileOf, 'upload.config.sweep.graceMs', raw.graceMs, DEFAULT_SWEEP.graceMs),
    intervalMs: positiveInteger(fileOf, 'upload.config.sweep.intervalMs', raw.intervalMs, DEFAULT_SWEEP.intervalMs),
  };
}

export function uploadSettings(config: ServiceConfig): UploadSettings {
  const raw = config.plugins.upload?.config ?? {};
  const fileOf: FileOf = (key) => config.fileOf('plugins', key);
  const providerOptions = record(fileOf, 'upload.config.providerOptions', raw.providerOptions);
  const directory = providerOptions.directory;
  if (directory !== undefined && (typeof directory !== 'string' || directory === ''))
    throw new ConfigError(
      fileOf('upload.config.providerOptions.directory'),
      'upload.config.providerOptions.directory',
      'must be a directory path',
    );
  const provider = raw.provider ?? 'local';
  if (typeof provider !== 'string' || provider === '')
    throw new ConfigError(
      fileOf('upload.config.provider'),
      'upload.config.provider',
      'must be the name of an upload provider package',
    );
  return {
    provider,
    providerOptions,
    actionOptions: record(fileOf, 'upload.config.actionOptions', raw.actionOptions),
    sizeLimit: positiveInteger(fileOf, 'upload.config.sizeLimit', raw.sizeLimit, DEFAULT_SIZE_LIMIT),
    maxFileSize: bodyFileLimit(config),
    breakpoints: breakpoints(fileOf, raw.breakpoints),
    responsiveDimensions: flag(fileOf, 'upload.config.responsiveDimensions', raw.responsiveDimensions, true),
    sizeOptimization: flag(fileOf, 'upload.config.sizeOptimization', raw.sizeOptimization, true),
    autoOrientation: flag(fileOf, 'upload.config.autoOrientation', raw.autoOrientation, false),
    directory: resolve(config.appDir, typeof directory === 'string' ? directory : 'public/uploads'),
    sweep: sweep(fileOf, raw.sweep),
  };
}
