/**
 * The `local` provider: files under one directory (default `<app>/public/uploads`), served by the
 * plugin at `/uploads/<hash><ext>` (Strapi's URL), with ranges (express.static) for media players.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import express from 'express';
import type { ProviderFile, ProviderStored, ProviderUpload, UploadProvider } from './provider.js';

export const LOCAL_URL_PREFIX = '/uploads';

/** Whether `name` is one this provider writes: made only of what a hash and an extension may hold, never a dotfile. */
export function isStoredName(name: string): boolean {
  return /^[A-Za-z0-9_.-]+$/.test(name) && !name.startsWith('.');
}

/** `<hash><ext>`: never a path. */
function storedName(file: { hash: string; ext: string }): string {
  const name = `${file.hash}${file.ext}`;
  if (!isStoredName(name)) throw new Error(`unsafe stored file name "${name}"`);
  return name;
}

/** Flushes what was written to `path` to the disk (`r+`: Windows flushes only a handle open for writing). */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes the names of a directory to the disk, so a new file's name survives a crash too (not on Windows: it cannot open a directory). */
async function syncDirectory(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function localProvider(directory: string): UploadProvider {
  const serveStatic = express.static(directory, { index: false, dotfiles: 'deny', fallthrough: true });
  return {
    name: 'local',
    async upload(file: ProviderUpload): Promise<ProviderStored> {
      const name = storedName(file);
      await mkdir(directory, { recursive: true });
      const target = join(directory, name);
      try {
        // 'wx': a name is never overwritten (hashes are random; a replacement is stored under a
        // name of its own and moved over the old one once its record is switched)
        await pipeline(file.stream(), createWriteStream(target, { flags: 'wx' }));
        // on disk before the record that points at it is written (and acknowledged, durably)
        await syncFile(target);
        await syncDirectory(directory);
      } catch (err) {
        await rm(target, { force: true });
        throw err;
      }
      return { url: `${LOCAL_URL_PREFIX}/${name}`, providerMetadata: null };
    },
    async moveOver(from, to): Promise<void> {
      // rename replaces the old name at once: a read already under way finishes with the old bytes
      await rename(join(directory, storedName(from)), join(directory, storedName(to)));
      await syncDirectory(directory);
    },
    async delete(file: ProviderFile): Promise<void> {
      await rm(join(directory, storedName(file)), { force: true });
    },
    serve: {
      path: LOCAL_URL_PREFIX,
      handler: (req, res, next) => {
        // an uploaded HTML or SVG opened from here must not run scripts with the site's origin
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Security-Policy', 'sandbox');
        serveStatic(req, res, next);
      },
    },
  };
}
