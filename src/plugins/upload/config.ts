/**
 * `plugins.upload.config`, typed: Strapi v4's keys (`sizeLimit`, `breakpoints`, `providerOptions`)
 * and defaults. Another `provider` (aws-s3, cloudinary…) is accepted and listed among the ignored
 * keys at start-up; files are then stored by the local provider.
 */
import { resolve } from 'node:path';
import { ConfigError, type ServiceConfig } from '../../config/index.js';

export interface UploadSettings {
  /** largest accepted file, in bytes (Strapi's `sizeLimit`) */
  sizeLimit: number;
  /** name → width/height bound of the responsive formats (Strapi's `breakpoints`) */
  breakpoints: Record<string, number>;
  /** the Media Library settings Strapi keeps in its admin store, here in config (same defaults) */
  responsiveDimensions: boolean;
  sizeOptimization: boolean;
  autoOrientation: boolean;
  /** where the local provider writes (`providerOptions.directory`, default `<app>/public/uploads`) */
  directory: string;
}

const FILE = 'config/plugins';
// 200 MB in the decimal units Strapi prints sizes in ("exceeds size limit of 200 MB")
export const DEFAULT_SIZE_LIMIT = 200_000_000;
export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = { large: 1000, medium: 750, small: 500 };

function positiveInteger(key: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new ConfigError(FILE, key, `must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

function flag(key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigError(FILE, key, 'must be a boolean');
  return value;
}

function record(key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(FILE, key, 'must be an object');
  return value as Record<string, unknown>;
}

function breakpoints(value: unknown): Record<string, number> {
  if (value === undefined) return { ...DEFAULT_BREAKPOINTS };
  const raw = record('upload.config.breakpoints', value);
  return Object.fromEntries(
    Object.entries(raw).map(([name, width]) => [name, positiveInteger(`upload.config.breakpoints.${name}`, width, 0)]),
  );
}

export function uploadSettings(config: ServiceConfig): UploadSettings {
  const raw = config.plugins.upload?.config ?? {};
  const providerOptions = record('upload.config.providerOptions', raw.providerOptions);
  const directory = providerOptions.directory;
  if (directory !== undefined && (typeof directory !== 'string' || directory === ''))
    throw new ConfigError(FILE, 'upload.config.providerOptions.directory', 'must be a directory path');
  return {
    sizeLimit: positiveInteger('upload.config.sizeLimit', raw.sizeLimit, DEFAULT_SIZE_LIMIT),
    breakpoints: breakpoints(raw.breakpoints),
    responsiveDimensions: flag('upload.config.responsiveDimensions', raw.responsiveDimensions, true),
    sizeOptimization: flag('upload.config.sizeOptimization', raw.sizeOptimization, true),
    autoOrientation: flag('upload.config.autoOrientation', raw.autoOrientation, false),
    directory: resolve(config.appDir, typeof directory === 'string' ? directory : 'public/uploads'),
  };
}
