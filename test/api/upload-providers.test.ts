// The upload provider a Strapi v4 app installed (`plugins.upload.config.provider`): the test's own
// provider packages (test/fixtures/upload-providers) copied into the app's node_modules, called as
// Strapi calls them for uploads, formats, replacements and deletions; a provider that is not
// installed.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createMediaApp, png, TEXT, type MediaApp } from '../helpers/media-app.js';
import { createTestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/upload-providers', import.meta.url));
const CDN = 'https://cdn.example.test/media';

type Call = { method: string; file: Record<string, unknown>; options?: unknown; stream?: boolean; buffer?: boolean };
type FileAnswer = Record<string, unknown> & {
  id: number;
  hash: string;
  url: string;
  formats: Record<string, Record<string, unknown>> | null;
};

/** Copies a fixture provider into the app's node_modules under `packageName`. */
function install(fixture: 'bucket' | 'buffered', packageName: string) {
  return (appDir: string) =>
    cpSync(join(FIXTURES, fixture), join(appDir, 'node_modules', ...packageName.split('/')), { recursive: true });
}

function providerModule<T>(media: MediaApp, packageName: string): T {
  return createRequire(join(media.service.context.config.appDir, 'package.json'))(packageName) as T;
}

async function upload(media: MediaApp, name: string, bytes: Buffer, fileInfo?: Record<string, unknown>) {
  const req = request(media.service.app).post('/api/upload').set(media.auth).attach('files', bytes, name);
  if (fileInfo) void req.field('fileInfo', JSON.stringify(fileInfo));
  return req;
}

describe('upload plugin: a provider package the app installed', function () {
  this.timeout(30_000);
  const root = mkdtempSync(join(tmpdir(), 'cs-bucket-'));
  let media: MediaApp;
  let calls: Call[];
  before(async () => {
    media = await createMediaApp(
      {
        provider: 'bucket',
        providerOptions: { root, baseUrl: CDN, failOn: ['refused', 'small_halfway'], tooLargeOn: ['huge'] },
        actionOptions: { uploadStream: { acl: 'public-read' }, delete: { quiet: true } },
      },
      {},
      install('bucket', '@strapi/provider-upload-bucket'),
    );
    calls = providerModule<{ calls: Call[] }>(media, '@strapi/provider-upload-bucket').calls;
  });
  after(async () => {
    await media.service.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    calls.length = 0;
  });

  it("stores an image and its formats through it: Strapi's file objects in, its url and provider_metadata kept", async () => {
    const bytes = await png(1200, 800);
    const res = await upload(media, 'photo.png', bytes, { alternativeText: 'a photo' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [file] = res.body as FileAnswer[];
    expect(file).to.include({
      name: 'photo.png',
      alternativeText: 'a photo',
      url: `${CDN}/${file!.hash}.png`,
      provider: 'bucket',
      width: 1200,
      height: 800,
    });
    expect(file!.provider_metadata).to.deep.equal({ key: `${file!.hash}.png` });
    expect(Object.keys(file!.formats ?? {}).sort()).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
    for (const [key, format] of Object.entries(file!.formats ?? {})) {
      expect(format).to.include({ hash: `${key}_${file!.hash}`, url: `${CDN}/${key}_${file!.hash}.png` });
      expect(format.provider_metadata).to.deep.equal({ key: `${key}_${file!.hash}.png` });
    }
    expect(readdirSync(root).sort()).to.include.members([`${file!.hash}.png`, `thumbnail_${file!.hash}.png`]);
    expect(await media.stored()).to.deep.equal([]);

    expect(calls.map((c) => c.method)).to.deep.equal(Array(5).fill('uploadStream'));
    expect(calls.every((c) => c.stream === true)).to.equal(true);
    expect(calls.map((c) => c.options)).to.deep.equal(Array(5).fill({ acl: 'public-read' }));
    const original = calls.find((c) => c.file.hash === file!.hash)!.file;
    expect(original).to.include({
      name: 'photo.png',
      alternativeText: 'a photo',
      caption: null,
      // the content API's uploads go into Strapi's "API Uploads" folder, the first one made
      folderPath: '/1',
      ext: '.png',
      mime: 'image/png',
      width: 1200,
      height: 800,
      size: file!.size,
    });
    expect(original.sizeInBytes).to.be.a('number');
    const thumbnail = calls.find((c) => c.file.hash === `thumbnail_${file!.hash}`)!.file;
    expect(thumbnail).to.include({ name: 'thumbnail_photo.png', ext: '.png', path: null });
    expect(thumbnail.width).to.be.at.most(245);
  });

  it("hands the body's path to the provider with the file and each format, and keeps it on the formats", async () => {
    const res = await request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .field('path', 'blog/2024')
      .attach('files', await png(600, 400), 'filed.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [file] = res.body as FileAnswer[];
    expect(Object.keys(file!.formats ?? {}).sort()).to.deep.equal(['small', 'thumbnail']);
    for (const format of Object.values(file!.formats ?? {})) expect(format.path).to.equal('blog/2024');
    expect(calls.map((c) => [c.file.hash, c.file.path])).to.have.deep.members([
      [file!.hash, 'blog/2024'],
      [`thumbnail_${file!.hash}`, 'blog/2024'],
      [`small_${file!.hash}`, 'blog/2024'],
    ]);
    // the path is no attribute of the file: the record does not keep it
    expect(file).to.not.have.property('path');

    calls.length = 0;
    const twice = await request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .field('path', 'a')
      .field('path', 'b')
      .attach('files', TEXT, 'twice.txt');
    expect(twice.status).to.equal(400);
    expect(twice.body.error).to.include({ name: 'ValidationError', message: 'path must be a `string` type' });
    expect(calls).to.deep.equal([]);
  });

  it("answers the provider's url where a file is populated, and serves nothing at /uploads", async () => {
    const [file] = (await upload(media, 'cover.png', await png(100, 80))).body as FileAnswer[];
    const album = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .send({ data: { title: 'remote', cover: file!.id } })
      .expect(200);
    const read = await request(media.service.app)
      .get(`/api/albums/${album.body.data.id}?populate=cover`)
      .set(media.auth)
      .expect(200);
    expect(read.body.data.attributes.cover.data.attributes.url).to.equal(`${CDN}/${file!.hash}.png`);
    await request(media.service.app).get(`/uploads/${file!.hash}.png`).expect(404);
  });

  it('deletes the file and each format through it, handing it the records as stored', async () => {
    const [file] = (await upload(media, 'doomed.png', await png(600, 400))).body as FileAnswer[];
    calls.length = 0;
    await request(media.service.app).delete(`/api/upload/files/${file!.id}`).set(media.auth).expect(200);
    expect(calls.map((c) => c.method)).to.deep.equal(['delete', 'delete', 'delete']);
    expect(calls.map((c) => c.options)).to.deep.equal([{ quiet: true }, { quiet: true }, { quiet: true }]);
    const record = calls[0]!.file;
    expect(record).to.include({ id: file!.id, name: 'doomed.png', hash: file!.hash, provider: 'bucket' });
    expect(record.provider_metadata).to.deep.equal({ key: `${file!.hash}.png` });
    expect(
      calls
        .slice(1)
        .map((c) => c.file.hash)
        .sort(),
    ).to.deep.equal([`small_${file!.hash}`, `thumbnail_${file!.hash}`]);
    expect(readdirSync(root).filter((name) => name.includes(file!.hash))).to.deep.equal([]);
  });

  it('replaces the bytes: the new ones stored first under a new hash and url, the old ones deleted after the record', async () => {
    const [file] = (await upload(media, 'notes.txt', TEXT)).body as FileAnswer[];
    calls.length = 0;
    const replaced = await request(media.service.app)
      .post(`/api/upload?id=${file!.id}`)
      .set(media.auth)
      .attach('files', Buffer.from('Second version of the notes.\n'), 'notes.txt')
      .expect(200);
    const answer = replaced.body as FileAnswer;
    // a remote name cannot be swapped atomically: the file keeps the new one (docs/strapi-deviations.md)
    expect(answer.id).to.equal(file!.id);
    expect(answer.hash)
      .to.match(/^notes_[0-9a-f]{10}$/)
      .and.not.equal(file!.hash);
    expect(answer.url).to.equal(`${CDN}/${answer.hash}.txt`);
    expect(calls.map((c) => c.method)).to.deep.equal(['uploadStream', 'delete']);
    expect(calls[1]!.file).to.include({ hash: file!.hash });
    expect(readFileSync(join(root, `${answer.hash}.txt`), 'utf8')).to.equal('Second version of the notes.\n');
    expect(readdirSync(root).filter((name) => name.includes(file!.hash))).to.deep.equal([]);
  });

  it('a replacement the provider refuses is a 500 that leaves the old file recorded and stored', async () => {
    const [file] = (await upload(media, 'kept.txt', TEXT)).body as FileAnswer[];
    const refused = await request(media.service.app)
      .post(`/api/upload?id=${file!.id}`)
      .set(media.auth)
      .attach('files', Buffer.from('never stored\n'), 'refused.txt');
    expect(refused.status).to.equal(500);
    const record = await request(media.service.app).get(`/api/upload/files/${file!.id}`).set(media.auth).expect(200);
    expect(record.body).to.include({ hash: file!.hash, url: file!.url, name: 'kept.txt' });
    expect(readFileSync(join(root, `${file!.hash}.txt`)).equals(TEXT)).to.equal(true);
    expect(readdirSync(root).filter((name) => name.startsWith('refused'))).to.deep.equal([]);
  });

  it('a refusal by the provider is a 500 that records nothing and leaves nothing stored', async () => {
    const before = (await request(media.service.app).get('/api/upload/files').set(media.auth)).body as unknown[];
    const refused = await upload(media, 'refused.txt', TEXT);
    expect(refused.status).to.equal(500);
    // an image whose last format is refused: the original and the formats stored before it go again
    const halfway = await upload(media, 'halfway.png', await png(1200, 800));
    expect(halfway.status).to.equal(500);
    const after = (await request(media.service.app).get('/api/upload/files').set(media.auth)).body as unknown[];
    expect(after).to.have.length(before.length);
    expect(readdirSync(root).filter((name) => /refused|halfway/.test(name))).to.deep.equal([]);
    const stored = calls.filter((c) => c.method === 'uploadStream' && String(c.file.name).includes('halfway'));
    const deleted = calls.filter((c) => c.method === 'delete').map((c) => c.file.hash);
    expect(deleted.sort()).to.deep.equal(
      stored
        .map((c) => c.file.hash)
        .filter((hash) => !String(hash).startsWith('small_'))
        .sort(),
    );
  });

  it("a file the provider finds too large (its @strapi/utils PayloadTooLargeError) is Strapi's 413, recording nothing", async () => {
    const before = (await request(media.service.app).get('/api/upload/files').set(media.auth)).body as unknown[];
    const res = await upload(media, 'huge.txt', TEXT);
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'Entity too large', details: {} },
    });
    const after = (await request(media.service.app).get('/api/upload/files').set(media.auth)).body as unknown[];
    expect(after).to.have.length(before.length);
    expect(readdirSync(root).filter((name) => name.startsWith('huge'))).to.deep.equal([]);
    const graphql = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .field(
        'operations',
        JSON.stringify({
          query: 'mutation($file: Upload!) { upload(file: $file) { data { id } } }',
          variables: { file: null },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.file'] }))
      .attach('0', TEXT, 'huge-too.txt');
    expect(
      graphql.body.errors.map((e: { message: string; extensions: unknown }) => [e.message, e.extensions]),
    ).to.deep.equal([
      [
        'Entity too large',
        {
          error: { name: 'PayloadTooLargeError', message: 'Entity too large', details: {} },
          code: 'STRAPI_PAYLOAD_TOO_LARGE_ERROR',
        },
      ],
    ]);
    const afterGraphql = (await request(media.service.app).get('/api/upload/files').set(media.auth)).body as unknown[];
    expect(afterGraphql).to.have.length(before.length);
  });
});

describe('upload plugin: a provider with upload(file.buffer) only, named by its package', () => {
  let media: MediaApp;
  before(async () => {
    media = await createMediaApp(
      { provider: 'upload-buffered', providerOptions: { baseUrl: CDN } },
      {},
      install('buffered', 'upload-buffered'),
    );
  });
  after(() => media.service.close());

  it('hands it the bytes in a buffer and keeps its url', async () => {
    const stored = providerModule<{ stored: Map<string, Buffer> }>(media, 'upload-buffered').stored;
    const res = await upload(media, 'readme.txt', TEXT);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [file] = res.body as FileAnswer[];
    expect(file).to.include({ url: `${CDN}/${file!.hash}.txt`, provider: 'upload-buffered', provider_metadata: null });
    expect(stored.get(`${file!.hash}.txt`)?.equals(TEXT)).to.equal(true);
    await request(media.service.app).delete(`/api/upload/files/${file!.id}`).set(media.auth).expect(200);
    expect(stored.has(`${file!.hash}.txt`)).to.equal(false);
  });
});

describe('upload plugin: a provider that is not installed', () => {
  it('outside production: starts with a warning naming the package, files go to local disk', async () => {
    const appDir = await writeTempApp({
      config: { plugins: { upload: { config: { provider: 'aws-s3', providerOptions: { s3Options: {} } } } } },
    });
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir, logger });
    await service.close();
    const warnings = lines.filter((l) => l.level === WARN).map((l) => l.msg);
    expect(warnings).to.include(
      `config/plugins.json: the upload provider "aws-s3" is not installed: run "npm install @strapi/provider-upload-aws-s3" in the app directory; until then uploaded files are stored on local disk in ${join(appDir, 'public/uploads')} and served at /uploads`,
    );
  });

  it("names the package itself when the provider is given by its package's name", async () => {
    const appDir = await writeTempApp({
      config: { plugins: { upload: { config: { provider: 'strapi-provider-upload-do' } } } },
    });
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir, logger });
    await service.close();
    const warnings = lines.filter((l) => l.level === WARN).map((l) => String(l.msg));
    expect(
      warnings.some((w) => w.includes('run "npm install strapi-provider-upload-do" in the app directory')),
    ).to.equal(true);
  });

  it('in production: stops the start', async () => {
    const appDir = await writeTempApp({
      config: {
        admin: { apiToken: { salt: 'salt-from-config' } },
        plugins: {
          'users-permissions': { config: { jwtSecret: 'secret-from-config' } },
          upload: { config: { provider: 'cloudinary' } },
        },
      },
    });
    const failure = await createTestService({ appDir, config: { env: 'production' } }).then(
      async (service) => {
        await service.close();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(failure).to.include(
      'the upload provider "cloudinary" is not installed: run "npm install @strapi/provider-upload-cloudinary" in the app directory',
    );
  });

  it("a package that is no provider: Strapi's message", async () => {
    const appDir = await writeTempApp({
      config: { plugins: { upload: { config: { provider: 'upload-buffered' } } } },
    });
    cpSync(join(FIXTURES, 'bucket'), join(appDir, 'node_modules', 'upload-buffered'), { recursive: true });
    // the same package without its delete method
    const index = join(appDir, 'node_modules', 'upload-buffered', 'index.js');
    writeFileSync(
      index,
      readFileSync(index, 'utf8').replace('async delete(file, options)', 'async remove(file, options)'),
    );
    const failure = await createTestService({ appDir }).then(
      async (service) => {
        await service.close();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(failure).to.include(`The upload provider "upload-buffered" doesn't implement the delete method.`);
  });
});

describe('upload plugin: a private provider (isPrivate, getSignedUrl)', function () {
  this.timeout(30_000);
  const root = mkdtempSync(join(tmpdir(), 'cs-bucket-'));
  let media: MediaApp;
  before(async () => {
    media = await createMediaApp(
      { provider: 'bucket', providerOptions: { root, baseUrl: CDN, private: true } },
      {},
      install('bucket', '@strapi/provider-upload-bucket'),
    );
  });
  after(async () => {
    await media.service.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers signed urls for populated files and their formats, in REST and GraphQL, at any depth', async () => {
    const [file] = (await upload(media, 'secret.png', await png(600, 400))).body as FileAnswer[];
    const signed = (hash: string) => `${CDN}/${hash}.png?signature=${hash}.png`;
    const album = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .send({ data: { title: 'private', cover: file!.id, figures: [{ caption: 'one', image: file!.id }] } })
      .expect(200);
    const id = album.body.data.id as number;
    const read = await request(media.service.app)
      .get(`/api/albums/${id}?populate[cover]=true&populate[figures][populate]=image`)
      .set(media.auth)
      .expect(200);
    const cover = read.body.data.attributes.cover.data.attributes;
    expect(cover.url).to.equal(signed(file!.hash));
    expect(cover.formats.thumbnail.url).to.equal(signed(`thumbnail_${file!.hash}`));
    expect(read.body.data.attributes.figures[0].image.data.attributes.url).to.equal(signed(file!.hash));
    const list = await request(media.service.app).get('/api/albums?populate=cover').set(media.auth).expect(200);
    expect(list.body.data[0].attributes.cover.data.attributes.url).to.equal(signed(file!.hash));

    const gql = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .send({ query: `{ album(id: ${id}) { data { attributes { cover { data { attributes { url } } } } } } }` })
      .expect(200);
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).to.equal(undefined);
    expect(gql.body.data.album.data.attributes.cover.data.attributes.url).to.equal(signed(file!.hash));

    // the stored address stays what the provider gave; the file read on its own is not signed (as Strapi)
    const own = await request(media.service.app).get(`/api/upload/files/${file!.id}`).set(media.auth).expect(200);
    expect(own.body.url).to.equal(`${CDN}/${file!.hash}.png`);
  });
});
