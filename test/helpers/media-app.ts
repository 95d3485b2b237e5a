// An app with media attributes (single, multiple, allowedTypes, inside a repeatable component and a
// dynamic zone), files made by the tests (PNG/JPEG with sharp, text), and a user allowed to upload.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { createTestService, type TestService } from './server.js';
import { writeTempApp } from './temp-app.js';

export const ALBUM_UID = 'api::album.album';

export const UPLOAD_ACTIONS = [
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.destroy',
];

const ALBUM_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `${ALBUM_UID}.${a}`);

export interface MediaApp {
  service: TestService;
  /** where the local provider writes */
  uploads: string;
  /** a JWT of a user of the authenticated role (albums + upload actions) */
  jwt: string;
  auth: { Authorization: string };
  /** names of the files stored on disk */
  stored(): Promise<string[]>;
}

/**
 * `uploadConfig`: `plugins.upload.config` keys; `plugins`: other plugins' entries (e.g. graphql);
 * `prepare`: what to add to the app's directory before it starts (e.g. packages in node_modules).
 */
export async function createMediaApp(
  uploadConfig: Record<string, unknown> = {},
  plugins: Record<string, unknown> = {},
  prepare?: (appDir: string) => void,
): Promise<MediaApp> {
  const uploads = await mkdtemp(join(tmpdir(), 'cs-uploads-'));
  const dir = await writeTempApp({
    api: {
      album: {
        kind: 'collectionType',
        collectionName: 'albums',
        info: { singularName: 'album', pluralName: 'albums', displayName: 'Album' },
        options: { draftAndPublish: false },
        attributes: {
          title: { type: 'string' },
          cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
          photos: { type: 'media', multiple: true, allowedTypes: ['images', 'videos'] },
          attachment: { type: 'media', multiple: false, allowedTypes: ['files'] },
          anything: { type: 'media', multiple: true },
          figures: { type: 'component', repeatable: true, component: 'shared.figure' },
          body: { type: 'dynamiczone', components: ['shared.figure', 'shared.note'] },
        },
      },
    },
    components: {
      'shared.figure': {
        collectionName: 'components_shared_figures',
        info: { displayName: 'figure' },
        attributes: {
          caption: { type: 'string' },
          image: { type: 'media', multiple: false, allowedTypes: ['images'] },
        },
      },
      'shared.note': {
        collectionName: 'components_shared_notes',
        info: { displayName: 'note' },
        attributes: { text: { type: 'string' } },
      },
    },
    config: {
      plugins: {
        i18n: { enabled: false },
        'users-permissions': { config: { jwtSecret: 'media-test-secret', ratelimit: { enabled: false } } },
        upload: { config: { providerOptions: { directory: uploads }, ...uploadConfig } },
        ...plugins,
      },
      permissions: {
        public: [`${ALBUM_UID}.find`, `${ALBUM_UID}.findOne`],
        authenticated: [...ALBUM_ACTIONS, ...UPLOAD_ACTIONS],
      },
    },
  });
  prepare?.(dir);
  const service = await createTestService({ appDir: dir });
  const closeService = service.close.bind(service);
  // the stored files go with the service
  service.close = async () => {
    await closeService();
    await rm(uploads, { recursive: true, force: true });
  };
  const res = await request(service.app)
    .post('/api/auth/local/register')
    .send({ username: 'uploader', email: 'uploader@example.com', password: 'Password123!' });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const jwt = res.body.jwt as string;
  return {
    service,
    uploads,
    jwt,
    auth: { Authorization: `Bearer ${jwt}` },
    stored: async () => (await readdir(uploads).catch(() => [] as string[])).sort(),
  };
}

/** A PNG of that size (solid colour, alpha channel). */
export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 0.8 } } })
    .png()
    .toBuffer();
}

/** A JPEG of that size, with some detail so that it does not compress to nothing. */
export function jpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + Math.floor(i / (width * 3)) * 13) % 256;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

export const TEXT = Buffer.from('Plain text, uploaded as a document.\n');
