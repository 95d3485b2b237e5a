// The upload plugin over REST: real files made here (PNG/JPEG with sharp, text, lying ones)
// uploaded to /api/upload, stored by the local provider, attached to entries and components,
// populated, listed, updated, replaced and deleted.
import { readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { ALBUM_UID, createMediaApp, jpeg, png, TEXT, type MediaApp } from '../helpers/media-app.js';

const FILE_KEYS = [
  'alternativeText',
  'caption',
  'createdAt',
  'ext',
  'formats',
  'hash',
  'height',
  'id',
  'mime',
  'name',
  'previewUrl',
  'provider',
  'provider_metadata',
  'size',
  'updatedAt',
  'url',
  'width',
];
const FORMAT_KEYS = ['ext', 'hash', 'height', 'mime', 'name', 'path', 'size', 'sizeInBytes', 'url', 'width'];

type FileAnswer = Record<string, unknown> & {
  id: number;
  hash: string;
  url: string;
  formats: Record<string, Record<string, unknown>> | null;
};

/** A multipart body sent as written (form-data libraries strip directories from file names). */
function rawFilePart(filename: string, content: string): { type: string; body: string } {
  const boundary = 'cs-test-boundary';
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  };
}

async function workDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('content-service-upload-'));
}

describe('upload plugin: REST', function () {
  this.timeout(30_000);
  let media: MediaApp;
  let bigPng: Buffer;
  let wideJpeg: Buffer;
  let tinyPng: Buffer;

  const upload = () => request(media.service.app).post('/api/upload').set(media.auth);
  const onDisk = (url: string) => join(media.uploads, url.replace(/^\/uploads\//, ''));
  const storedAlbum = async (id: number) =>
    (await media.service.context.models.collection(ALBUM_UID).findOne({ _id: id as never })) as Record<
      string,
      unknown
    > | null;
  const fileCount = () => media.service.context.models.collection('plugin::upload.file').countDocuments({});

  before(async () => {
    media = await createMediaApp();
    [bigPng, wideJpeg, tinyPng] = await Promise.all([png(1200, 800), jpeg(600, 300), png(100, 80)]);
  });
  after(() => media.service.close());

  describe('POST /api/upload', () => {
    let image: FileAnswer;

    it('stores an image with its dimensions and Strapi formats (thumbnail 245x156 inside, large, medium, small)', async () => {
      const res = await upload().attach('files', bigPng, { filename: 'My Photo (1).png', contentType: 'image/png' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.be.an('array').with.length(1);
      image = res.body[0];
      expect(Object.keys(image).sort()).to.deep.equal(FILE_KEYS);
      expect(image).to.include({
        name: 'My Photo (1).png',
        alternativeText: null,
        caption: null,
        width: 1200,
        height: 800,
        ext: '.png',
        mime: 'image/png',
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
      });
      expect(image.hash).to.match(/^My_Photo_1_[0-9a-f]{10}$/);
      expect(image.url).to.equal(`/uploads/${image.hash}.png`);
      const formats = image.formats!;
      expect(Object.keys(formats).sort()).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
      const sizes = Object.fromEntries(Object.entries(formats).map(([k, f]) => [k, [f.width, f.height]]));
      expect(sizes).to.deep.equal({ thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] });
      for (const [key, format] of Object.entries(formats)) {
        expect(Object.keys(format).sort()).to.deep.equal(FORMAT_KEYS);
        expect(format).to.include({
          name: `${key}_My Photo (1).png`,
          hash: `${key}_${image.hash}`,
          ext: '.png',
          mime: 'image/png',
          path: null,
          url: `/uploads/${key}_${image.hash}.png`,
        });
        const bytes = await readFile(onDisk(String(format.url)));
        expect(format.sizeInBytes).to.equal(bytes.length);
        expect(format.size).to.equal(Math.round(bytes.length / 10) / 100);
        const meta = await sharp(bytes).metadata();
        expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', format.width, format.height]);
      }
    });

    it('stores the image bytes (re-encoded only when smaller, as Strapi) and serves them at the url', async () => {
      const stored = await readFile(onDisk(image.url));
      expect(stored.length).to.be.at.most(bigPng.length);
      expect(image.size).to.equal(Math.round(stored.length / 10) / 100);
      const meta = await sharp(stored).metadata();
      expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', 1200, 800]);
      const served = await request(media.service.app).get(image.url).buffer(true);
      expect(served.status).to.equal(200);
      expect(served.headers['content-type']).to.equal('image/png');
      expect(served.headers['x-content-type-options']).to.equal('nosniff');
      expect(Buffer.compare(served.body as Buffer, stored)).to.equal(0);
    });

    it("re-encodes and resizes an image to the bytes Strapi 4.26 stores (sharp 0.33.5's palette PNGs)", async () => {
      // sizes recorded from the reference Strapi 4.26.2 (sharp 0.33.5) for these pixels
      const raw = Buffer.alloc(1200 * 800 * 3);
      for (let i = 0; i < raw.length; i++) raw[i] = ((i % 3600) * 7 + Math.floor(i / 3600) * 3) % 256;
      const detailed = await sharp(raw, { raw: { width: 1200, height: 800, channels: 3 } })
        .png()
        .toBuffer();
      const res = await upload().attach('files', detailed, 'detailed.png');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [file] = res.body as FileAnswer[];
      expect(file!.size).to.equal(7.61);
      const sizes = Object.fromEntries(
        Object.entries(file!.formats!).map(([key, format]) => [key, [format.width, format.height, format.sizeInBytes]]),
      );
      expect(sizes).to.deep.equal({
        thumbnail: [234, 156, 83112],
        large: [1000, 667, 33813],
        medium: [750, 500, 16147],
        small: [500, 333, 16355],
      });
    });

    it('gives a JPEG only the formats smaller than itself', async () => {
      const res = await upload().attach('files', wideJpeg, 'wide.jpg');
      expect(res.status).to.equal(200);
      const [file] = res.body as FileAnswer[];
      expect(file).to.include({ width: 600, height: 300, mime: 'image/jpeg', ext: '.jpg' });
      expect(Object.keys(file!.formats!).sort()).to.deep.equal(['small', 'thumbnail']);
      expect(file!.formats!.thumbnail).to.include({ width: 245, height: 123 });
      expect(file!.formats!.small).to.include({ width: 500, height: 250 });
    });

    it("takes a name without extension's extension from its type, as Strapi 4.26 (mime-types 2.1.35)", async () => {
      const jpegRes = await upload().attach('files', wideJpeg, { filename: 'photo', contentType: 'image/jpeg' });
      expect(jpegRes.status, JSON.stringify(jpegRes.body)).to.equal(200);
      expect((jpegRes.body as FileAnswer[])[0]).to.include({ ext: '.jpeg', mime: 'image/jpeg' });
      const notes = await upload().attach('files', Buffer.from('# Notes\n'), {
        filename: 'notes',
        contentType: 'text/markdown',
      });
      expect(notes.status, JSON.stringify(notes.body)).to.equal(200);
      expect((notes.body as FileAnswer[])[0]).to.include({ ext: '.markdown' });
    });

    it('gives an image smaller than the thumbnail no formats (null)', async () => {
      const res = await upload().attach('files', tinyPng, 'tiny.png');
      expect(res.status).to.equal(200);
      expect(res.body[0]).to.include({ width: 100, height: 80, formats: null });
    });

    it('stores any other file byte for byte, without dimensions or formats', async () => {
      const res = await upload().attach('files', TEXT, 'notes.txt');
      expect(res.status).to.equal(200);
      const [file] = res.body as FileAnswer[];
      expect(file).to.include({
        name: 'notes.txt',
        ext: '.txt',
        mime: 'text/plain',
        width: null,
        height: null,
        formats: null,
        size: Math.round(TEXT.length / 10) / 100,
      });
      expect(Buffer.compare(await readFile(onDisk(file!.url)), TEXT)).to.equal(0);
    });

    it('takes the extension of the type when the name has none that could be stored', async () => {
      for (const name of ['README', 'notes.final draft']) {
        const res = await upload().attach('files', TEXT, { filename: name, contentType: 'text/plain' });
        expect(res.status, name).to.equal(200);
        expect(res.body[0]).to.include({ name, ext: '.txt', mime: 'text/plain' });
        expect(res.body[0].url).to.match(/^\/uploads\/[A-Za-z0-9_]+\.txt$/);
      }
    });

    it('takes several files with one fileInfo each, in order', async () => {
      const res = await upload()
        .attach('files', tinyPng, 'one.png')
        .attach('files', TEXT, 'two.txt')
        .field('fileInfo', JSON.stringify([{ name: 'first.png', alternativeText: 'alt 1' }, { caption: 'cap 2' }]));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [one, two] = res.body as FileAnswer[];
      expect(one).to.include({ name: 'first.png', alternativeText: 'alt 1', caption: null });
      expect(one!.hash).to.match(/^first_[0-9a-f]{10}$/);
      expect(two).to.include({ name: 'two.txt', alternativeText: null, caption: 'cap 2' });
      expect(two!.id).to.equal(one!.id + 1);
    });

    it('takes a single fileInfo (multipart JSON text or repeated fields)', async () => {
      const res = await upload()
        .attach('files', TEXT, 'x.txt')
        .field('fileInfo', JSON.stringify({ name: 'renamed', alternativeText: 12, caption: 'c' }));
      expect(res.status).to.equal(200);
      expect(res.body[0]).to.include({ name: 'renamed', alternativeText: '12', caption: 'c', ext: '.txt' });
      expect(res.body[0].hash).to.match(/^renamed_[0-9a-f]{10}$/);
    });

    it('ignores fileInfo keys the body schema does not name (Strapi 4.26: its non-strict cast strips them)', async () => {
      const one = await upload()
        .attach('files', TEXT, 'ok.txt')
        .field('fileInfo', JSON.stringify({ name: 'n.txt', folder: 3, foo: 'x' }));
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      expect(one.body[0]).to.include({ name: 'n.txt', alternativeText: null, caption: null });
      expect(one.body[0]).to.not.have.property('foo');
      const two = await upload()
        .attach('files', TEXT, 'a.txt')
        .attach('files', TEXT, 'b.txt')
        .field('fileInfo', JSON.stringify([{ name: 'first.txt' }, { title: 'b' }]));
      expect(two.status, JSON.stringify(two.body)).to.equal(200);
      expect(two.body.map((f: { name: string }) => f.name)).to.deep.equal(['first.txt', 'b.txt']);
    });

    it("names the hash as Strapi 4.26's slugify does: case kept, words parted with _ (apostrophes too)", async () => {
      const names: Array<[string, RegExp]> = [
        ["it's Ünïcode.txt", /^it_s_Uenicode_[0-9a-f]{10}$/],
        ['Don’t stop (final) v2.txt', /^Don_t_stop_final_v2_[0-9a-f]{10}$/],
        ['fooBar.txt', /^foo_Bar_[0-9a-f]{10}$/],
      ];
      for (const [name, hash] of names) {
        const res = await upload().attach('files', TEXT, name);
        expect(res.status, name).to.equal(200);
        expect(res.body[0].name).to.equal(name);
        expect(res.body[0].hash, name).to.match(hash);
        expect(res.body[0].url).to.equal(`/uploads/${res.body[0].hash}.txt`);
      }
    });

    describe('bad input: 4xx, nothing stored', () => {
      let before: { files: number; stored: string[] };
      beforeEach(async () => {
        before = { files: await fileCount(), stored: await media.stored() };
      });
      afterEach(async () => {
        expect(await fileCount()).to.equal(before.files);
        expect(await media.stored()).to.deep.equal(before.stored);
        expect(await workDirs()).to.deep.equal([]);
      });

      const cases: Array<[string, () => request.Test, number, string]> = [
        ['no file', () => upload(), 400, 'Files are empty'],
        ['an empty file input', () => upload().attach('files', Buffer.alloc(0), ''), 400, 'Files are empty'],
        // Strapi's controller: one file of 0 bytes is no file (`files.size === 0`)
        [
          'one named file of 0 bytes',
          () => upload().attach('files', Buffer.alloc(0), 'empty.txt'),
          400,
          'Files are empty',
        ],
        [
          'JPEG bytes named .png',
          () => upload().attach('files', wideJpeg, 'photo.png'),
          400,
          'The content of photo.png is image/jpeg, not image/png',
        ],
        [
          'text named .png',
          () => upload().attach('files', TEXT, 'fake.png'),
          400,
          'The content of fake.png is not image/png',
        ],
        [
          'a PNG named .txt',
          () => upload().attach('files', tinyPng, 'image.txt'),
          400,
          'The content of image.txt is image/png, not text/plain',
        ],
        [
          'a PNG sent as image/gif',
          () => upload().attach('files', tinyPng, { filename: 'image', contentType: 'image/gif' }),
          400,
          'The content of image is image/png, not image/gif',
        ],
        [
          'a truncated PNG',
          () => upload().attach('files', bigPng.subarray(0, 60), 'broken.png'),
          400,
          'File is not a valid image',
        ],
        [
          'a name with a path',
          () => {
            const part = rawFilePart('../../etc/passwd.txt', 'root');
            return upload().set('Content-Type', part.type).send(part.body);
          },
          400,
          'File name contains invalid characters',
        ],
        [
          'a name with reserved characters',
          () => upload().attach('files', TEXT, 'a<b>.txt'),
          400,
          'File name contains invalid characters',
        ],
        [
          'a reserved device name',
          () => upload().attach('files', TEXT, 'con'),
          400,
          'File name contains invalid characters',
        ],
        [
          'a fileInfo name with a path',
          () =>
            upload()
              .attach('files', TEXT, 'ok.txt')
              .field('fileInfo', JSON.stringify({ name: '../x.txt' })),
          400,
          'File name contains invalid characters',
        ],
        [
          'a fileInfo that is not JSON',
          () => upload().attach('files', TEXT, 'ok.txt').field('fileInfo', '{bad'),
          400,
          'fileInfo must be a `object` type, but the final value was: `null` (cast from the value `"{bad"`).',
        ],
        [
          'an object fileInfo for several files',
          () =>
            upload()
              .attach('files', TEXT, 'a.txt')
              .attach('files', TEXT, 'b.txt')
              .field('fileInfo', JSON.stringify({ name: 'x' })),
          400,
          'fileInfo must be a `array` type, but the final value was: `null` (cast from the value `"{"name":"x"}"`).',
        ],
        [
          'a fileInfo name that is an object',
          () =>
            upload()
              .attach('files', TEXT, 'ok.txt')
              .field('fileInfo', JSON.stringify({ name: { a: 1 } })),
          400,
          'fileInfo.name must be a `string` type, but the final value was: `{\n  "a": "1"\n}`.',
        ],
        [
          'one bad file among good ones',
          () => upload().attach('files', tinyPng, 'good.png').attach('files', TEXT, 'bad.png'),
          400,
          'The content of bad.png is not image/png',
        ],
        [
          'a malformed multipart body',
          () =>
            upload()
              .set('Content-Type', 'multipart/form-data; boundary=xyz')
              .send('--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nabc'),
          400,
          'Invalid multipart body',
        ],
      ];
      for (const [name, send, status, message] of cases) {
        it(`${name}: ${status}`, async () => {
          const res = await send();
          expect(res.status, JSON.stringify(res.body)).to.equal(status);
          expect(res.body.data).to.equal(null);
          expect(res.body.error).to.include({ status, message });
        });
      }

      it('no credentials: 403 (the public role may not upload)', async () => {
        const res = await request(media.service.app).post('/api/upload').attach('files', TEXT, 'a.txt');
        expect(res.status).to.equal(403);
        expect(res.body.error).to.include({ name: 'ForbiddenError' });
      });
    });
  });

  describe('size limit (config plugins.upload.config.sizeLimit)', () => {
    let limited: MediaApp;
    before(async () => {
      limited = await createMediaApp({ sizeLimit: 50_000, sizeOptimization: false });
    });
    after(() => limited.service.close());

    it('answers 413 while streaming: no partial file, no record, no temporary file', async () => {
      const big = Buffer.alloc(400_000, 7);
      const res = await request(limited.service.app)
        .post('/api/upload')
        .set(limited.auth)
        .attach('files', TEXT, 'small.txt')
        .attach('files', big, 'huge.bin');
      expect(res.status).to.equal(413);
      expect(res.body.error).to.deep.equal({
        status: 413,
        name: 'PayloadTooLargeError',
        message: 'huge.bin exceeds size limit of 50 KB.',
        details: {},
      });
      expect(await limited.stored()).to.deep.equal([]);
      expect(await limited.service.context.models.collection('plugin::upload.file').countDocuments({})).to.equal(0);
      expect(await workDirs()).to.deep.equal([]);
    });

    it('accepts a file of exactly the limit; without sizeOptimization an image is stored byte for byte', async () => {
      const exact = await request(limited.service.app)
        .post('/api/upload')
        .set(limited.auth)
        .attach('files', Buffer.alloc(50_000, 65), 'exact.txt');
      expect(exact.status).to.equal(200);
      const res = await request(limited.service.app)
        .post('/api/upload')
        .set(limited.auth)
        .attach('files', bigPng, 'b.png');
      expect(res.status).to.equal(200);
      const stored = await readFile(join(limited.uploads, `${res.body[0].hash}.png`));
      expect(Buffer.compare(stored, bigPng)).to.equal(0);
    });
  });

  describe('media attributes on entries', () => {
    let pngId: number;
    let textId: number;
    let albumId: number;

    before(async () => {
      const res = await upload().attach('files', bigPng, 'cover.png').attach('files', TEXT, 'doc.txt');
      [pngId, textId] = (res.body as FileAnswer[]).map((f) => f.id) as [number, number];
    });

    it('sets media by id on create (single, multiple, in a component and a dynamic zone) and populates them', async () => {
      const res = await request(media.service.app)
        .post('/api/albums')
        .set(media.auth)
        .send({
          data: {
            title: 'Holidays',
            cover: pngId,
            photos: [pngId],
            attachment: textId,
            anything: [textId, pngId],
            figures: [{ caption: 'first', image: pngId }],
            body: [
              { __component: 'shared.figure', caption: 'in zone', image: pngId },
              { __component: 'shared.note', text: 'n' },
            ],
          },
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      albumId = res.body.data.id as number;
      const read = await request(media.service.app).get(
        `/api/albums/${albumId}?populate[cover][fields][0]=name&populate[photos][fields][0]=name&populate[attachment]=true&populate[anything][fields][0]=mime&populate[figures][populate]=*&populate[body][populate]=*`,
      );
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      const a = read.body.data.attributes;
      expect(a.cover).to.deep.equal({ data: { id: pngId, attributes: { name: 'cover.png' } } });
      expect(a.photos).to.deep.equal({ data: [{ id: pngId, attributes: { name: 'cover.png' } }] });
      expect(a.attachment.data.attributes).to.include({ name: 'doc.txt', mime: 'text/plain', formats: null });
      expect(a.attachment.data.attributes.url).to.match(/^\/uploads\/doc_[0-9a-f]{10}\.txt$/);
      expect(a.anything.data.map((f: { attributes: { mime: string } }) => f.attributes.mime)).to.deep.equal([
        'text/plain',
        'image/png',
      ]);
      expect(a.figures[0].image.data.id).to.equal(pngId);
      expect(a.figures[0].image.data.attributes).to.include({ name: 'cover.png', width: 1200 });
      expect(a.figures[0].image.data.attributes.formats.thumbnail).to.include({ width: 234, height: 156 });
      expect(a.body[0].image.data.id).to.equal(pngId);
    });

    it('refuses a file the attribute does not accept (allowedTypes), at the top level and in components', async () => {
      const cases: Array<[Record<string, unknown>, string[], string]> = [
        [{ cover: textId }, ['cover'], `cover accepts only images: file ${textId} is text/plain`],
        [{ photos: [pngId, textId] }, ['photos'], `photos accepts only images, videos: file ${textId} is text/plain`],
        [{ attachment: pngId }, ['attachment'], `attachment accepts only files: file ${pngId} is image/png`],
        [
          { figures: [{ image: textId }] },
          ['figures', '0', 'image'],
          `figures[0].image accepts only images: file ${textId} is text/plain`,
        ],
      ];
      for (const [data, path, message] of cases) {
        const res = await request(media.service.app).put(`/api/albums/${albumId}`).set(media.auth).send({ data });
        expect(res.status, JSON.stringify(data)).to.equal(400);
        expect(res.body.error.details.errors).to.deep.equal([{ path, message, name: 'ValidationError' }]);
      }
      const missing = await request(media.service.app)
        .put(`/api/albums/${albumId}`)
        .set(media.auth)
        .send({ data: { cover: 9999 } });
      expect(missing.status).to.equal(400);
      expect(missing.body.error.message).to.equal(
        '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
      );
      const stored = await storedAlbum(albumId);
      expect(stored?.cover).to.equal(pngId);
    });

    it('refuses filters on media attributes', async () => {
      const res = await request(media.service.app).get(`/api/albums?filters[cover][id][$eq]=${pngId}`);
      expect(res.status).to.equal(400);
    });

    describe('ref, refId, field: the upload goes into an entry', () => {
      it('sets a single media attribute and appends to a multiple one', async () => {
        const cover = await upload()
          .attach('files', tinyPng, 'new-cover.png')
          .field('ref', ALBUM_UID)
          .field('refId', String(albumId))
          .field('field', 'cover');
        expect(cover.status, JSON.stringify(cover.body)).to.equal(200);
        const photos = await upload()
          .attach('files', tinyPng, 'p1.png')
          .attach('files', wideJpeg, 'p2.jpg')
          .field('ref', ALBUM_UID)
          .field('refId', String(albumId))
          .field('field', 'photos');
        expect(photos.status).to.equal(200);
        const stored = await storedAlbum(albumId);
        expect(stored?.cover).to.equal(cover.body[0].id);
        expect(stored?.photos).to.deep.equal([pngId, photos.body[0].id, photos.body[1].id]);
      });

      it('several files into a single media attribute: each stored, the last one linked (Strapi: the last to finish)', async () => {
        const res = await upload()
          .attach('files', tinyPng, 'first.png')
          .attach('files', tinyPng, 'second.png')
          .field('ref', ALBUM_UID)
          .field('refId', String(albumId))
          .field('field', 'cover');
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.map((f: { name: string }) => f.name)).to.deep.equal(['first.png', 'second.png']);
        expect((await storedAlbum(albumId))?.cover).to.equal(res.body[1].id);
        const read = await request(media.service.app).get(`/api/albums/${albumId}?populate=cover`).set(media.auth);
        expect(read.body.data.attributes.cover.data.id).to.equal(res.body[1].id);
      });

      it('goes into a component (ref = component uid, refId = its id), in a repeatable component or a dynamic zone', async () => {
        const stored = await storedAlbum(albumId);
        const figureId = (stored?.figures as Array<{ id: number }>)[0]!.id;
        const zoneId = (stored?.body as Array<{ id: number; __component: string }>)[0]!.id;
        for (const refId of [figureId, zoneId]) {
          const res = await upload()
            .attach('files', tinyPng, `figure-${refId}.png`)
            .field('ref', 'shared.figure')
            .field('refId', String(refId))
            .field('field', 'image');
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
        }
        const read = await request(media.service.app).get(
          `/api/albums/${albumId}?fields[0]=title&populate[figures][populate][image][fields][0]=name&populate[body][populate]=*`,
        );
        expect(read.body.data.attributes.figures[0].image.data.attributes.name).to.equal(`figure-${figureId}.png`);
        expect(read.body.data.attributes.body[0].image.data.attributes.name).to.equal(`figure-${zoneId}.png`);
        expect(read.body.data.attributes.body[1]).to.deep.equal({ id: 1, __component: 'shared.note', text: 'n' });
      });

      describe('bad targets: 4xx before anything is stored', () => {
        let count: number;
        beforeEach(async () => {
          count = await fileCount();
        });
        afterEach(async () => {
          expect(await fileCount()).to.equal(count);
        });
        const target = (ref: string, refId: string, field: string) =>
          upload().attach('files', tinyPng, 't.png').field('ref', ref).field('refId', refId).field('field', field);

        it('a file the attribute does not accept', async () => {
          const res = await upload()
            .attach('files', TEXT, 't.txt')
            .field('ref', ALBUM_UID)
            .field('refId', String(albumId))
            .field('field', 'cover');
          expect(res.status).to.equal(400);
          expect(res.body.error.message).to.equal('cover accepts only images: t.txt is text/plain');
        });
        it('an unknown ref, a missing entry or component, a field that is not media, a partial target', async () => {
          const cases: Array<[request.Test, string]> = [
            [target('api::nope.nope', '1', 'cover'), 'Unknown ref api::nope.nope'],
            [target(ALBUM_UID, '999', 'cover'), `${ALBUM_UID} 999 does not exist`],
            [target('shared.figure', '999', 'image'), 'shared.figure 999 does not exist'],
            [target(ALBUM_UID, String(albumId), 'title'), `title is not a media attribute of ${ALBUM_UID}`],
            [target(ALBUM_UID, 'abc', 'cover'), 'refId must be an id, got "abc"'],
            [
              upload().attach('files', tinyPng, 't.png').field('ref', ALBUM_UID).field('refId', '1'),
              'ref, refId and field must be given together to attach the upload to an entry',
            ],
          ];
          for (const [send, message] of cases) {
            const res = await send;
            expect(res.status, message).to.equal(400);
            expect(res.body.error.message).to.equal(message);
          }
        });
        it('a caller who may upload but not update the entry: 403', async () => {
          const { accessKey } = await createApiToken(media.service.context, {
            name: 'upload-only',
            type: 'custom',
            actions: ['plugin::upload.content-api.upload'],
          });
          const res = await request(media.service.app)
            .post('/api/upload')
            .set({ Authorization: `Bearer ${accessKey}` })
            .attach('files', tinyPng, 't.png')
            .field('ref', ALBUM_UID)
            .field('refId', String(albumId))
            .field('field', 'cover');
          expect(res.status).to.equal(403);
        });
      });
    });
  });

  describe('POST /api/upload?id= (update, replace)', () => {
    let file: FileAnswer;
    before(async () => {
      const res = await upload().attach('files', bigPng, 'original.png');
      file = res.body[0];
    });

    it('updates the info from JSON or multipart; null or absent keeps a value', async () => {
      const json = await upload()
        .query({ id: file.id })
        .send({ fileInfo: { alternativeText: 'alt', caption: 'cap' } });
      expect(json.status, JSON.stringify(json.body)).to.equal(200);
      expect(json.body).to.include({ id: file.id, name: 'original.png', alternativeText: 'alt', caption: 'cap' });
      const multipart = await upload()
        .query({ id: file.id })
        .field('fileInfo', JSON.stringify({ name: 'renamed.png', caption: null }));
      expect(multipart.status).to.equal(200);
      expect(multipart.body).to.include({
        name: 'renamed.png',
        alternativeText: 'alt',
        caption: 'cap',
        hash: file.hash,
      });
      // one empty file is no file (Strapi's controller): the info is updated, the bytes stay
      const empty = await upload()
        .query({ id: file.id })
        .attach('files', Buffer.alloc(0), 'empty.png')
        .field('fileInfo', JSON.stringify({ caption: 'from an empty part' }));
      expect(empty.status, JSON.stringify(empty.body)).to.equal(200);
      expect(empty.body).to.include({ caption: 'from an empty part', size: file.size, url: file.url });
      const unknown = await upload()
        .query({ id: file.id })
        .send({ fileInfo: { caption: 'x', folder: 1 } });
      expect(unknown.status, JSON.stringify(unknown.body)).to.equal(200);
      expect(unknown.body).to.include({ id: file.id, caption: 'x' });
    });

    it('replaces the bytes under the same url; the old formats are gone from disk', async () => {
      const res = await upload().query({ id: file.id }).attach('files', tinyPng, 'replacement.png');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({
        id: file.id,
        name: 'replacement.png',
        url: file.url,
        hash: file.hash,
        width: 100,
        height: 80,
        formats: null,
        alternativeText: 'alt',
      });
      const meta = await sharp(await readFile(onDisk(file.url))).metadata();
      expect([meta.width, meta.height]).to.deep.equal([100, 80]);
      for (const format of Object.values(file.formats!)) {
        const gone = await stat(onDisk(String(format.url))).catch(() => null);
        expect(gone, String(format.url)).to.equal(null);
      }
    });

    it('answers 404 for an unknown id and 400 for several files', async () => {
      const missing = await upload()
        .query({ id: 9999 })
        .send({ fileInfo: { name: 'x' } });
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.include({ name: 'NotFoundError', message: 'Entity not found' });
      const two = await upload().query({ id: file.id }).attach('files', TEXT, 'a.txt').attach('files', TEXT, 'b.txt');
      expect(two.status).to.equal(400);
      expect(two.body.error.message).to.equal('Cannot replace a file with multiple ones');
    });
  });

  describe('GET /api/upload/files', () => {
    const get = (path: string) => request(media.service.app).get(path).set(media.auth);

    it('answers a bare array with Strapi parameters: filters, sort, fields, start/limit', async () => {
      const all = await get('/api/upload/files?fields[0]=name');
      expect(all.status).to.equal(200);
      expect(all.body).to.be.an('array');
      expect(all.body.length).to.equal(await fileCount());
      expect(Object.keys(all.body[0]).sort()).to.deep.equal(['id', 'name']);
      const texts = await get('/api/upload/files?filters[mime][$eq]=text/plain&fields[0]=mime');
      expect(texts.body.length).to.be.greaterThan(0);
      expect(texts.body.every((f: { mime: string }) => f.mime === 'text/plain')).to.equal(true);
      const sorted = await get('/api/upload/files?sort=name:desc&fields[0]=name&start=1&limit=2');
      const names = (all.body as Array<{ name: string }>).map((f) => f.name).sort((a, b) => (a < b ? 1 : -1));
      expect(sorted.body.map((f: { name: string }) => f.name)).to.deep.equal(names.slice(1, 3));
      const ignored = await get('/api/upload/files?pagination[pageSize]=1&fields[0]=name');
      expect(ignored.body.length).to.equal(all.body.length);
      // page/pageSize are checked by Strapi's query conversion, but its findMany applies no page
      // `_q`: Strapi's search over the text attributes (name, hash, mime, url...)
      const searched = await get('/api/upload/files?_q=TEXT/PLAIN&fields[0]=mime');
      expect(searched.body.length).to.equal(texts.body.length);
      expect((await get('/api/upload/files?_q=no-such-file-anywhere')).body).to.deep.equal([]);
      const paged = await get('/api/upload/files?page=2&pageSize=1&fields[0]=name');
      expect(paged.body.length).to.equal(all.body.length);
      for (const limit of ['-1', '0']) {
        const every = await get(`/api/upload/files?limit=${limit}&fields[0]=name`);
        expect(every.body.length, limit).to.equal(all.body.length);
      }
    });

    it("answers Strapi's 400 PaginationError for a bad page or page size, or one mixed with start/limit", async () => {
      const cases: Array<[string, string]> = [
        ['page=0', "Invalid 'page' parameter. Expected an integer > 0, received: 0"],
        ['pageSize=abc&page=1', "Invalid 'pageSize' parameter. Expected an integer > 0, received: 1"],
        [
          'page=1&start=0',
          'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
        ],
        [
          'pageSize=5&limit=5',
          'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
        ],
      ];
      for (const [query, message] of cases) {
        const res = await get(`/api/upload/files?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error, query).to.deep.equal({ status: 400, name: 'PaginationError', message, details: {} });
      }
    });

    it('answers 400 for unknown fields, filters, operators and bad windows', async () => {
      for (const query of ['filters[foo][$eq]=1', 'filters[name][$foo]=1', 'sort=foo', 'fields[0]=foo', 'limit=abc']) {
        const res = await get(`/api/upload/files?${query}`);
        expect(res.status, query).to.equal(400);
      }
    });

    it('reads one file; 404 file.notFound otherwise', async () => {
      const [first] = (await get('/api/upload/files?limit=1')).body as FileAnswer[];
      const one = await get(`/api/upload/files/${first!.id}`);
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal(first);
      for (const id of ['9999', 'abc']) {
        const res = await get(`/api/upload/files/${id}`);
        expect(res.status).to.equal(404);
        expect(res.body.error.message).to.equal('file.notFound');
      }
    });

    it('is denied to the public role', async () => {
      expect((await request(media.service.app).get('/api/upload/files')).status).to.equal(403);
      expect((await request(media.service.app).get('/api/upload/files/1')).status).to.equal(403);
      expect((await request(media.service.app).delete('/api/upload/files/1')).status).to.equal(403);
    });
  });

  describe('DELETE /api/upload/files/:id', () => {
    it('removes the file and its formats from disk and its id from every entry, component and zone', async () => {
      const res = await upload().attach('files', bigPng, 'doomed.png');
      const doomed = res.body[0] as FileAnswer;
      const keep = (await upload().attach('files', tinyPng, 'keep.png')).body[0] as FileAnswer;
      const created = await request(media.service.app)
        .post('/api/albums')
        .set(media.auth)
        .send({
          data: {
            cover: doomed.id,
            photos: [keep.id, doomed.id],
            anything: [doomed.id],
            figures: [{ image: doomed.id }, { image: keep.id }],
            body: [{ __component: 'shared.figure', image: doomed.id }],
          },
        });
      expect(created.status).to.equal(200);
      const other = await request(media.service.app)
        .post('/api/albums')
        .set(media.auth)
        .send({ data: { cover: doomed.id } });
      const paths = [doomed.url, ...Object.values(doomed.formats!).map((f) => String(f.url))];
      for (const url of paths) expect((await stat(onDisk(url))).isFile()).to.equal(true);

      const deleted = await request(media.service.app).delete(`/api/upload/files/${doomed.id}`).set(media.auth);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal(doomed);
      for (const url of paths) {
        expect(await stat(onDisk(url)).catch(() => null), url).to.equal(null);
        expect((await request(media.service.app).get(url)).status).to.equal(404);
      }
      const first = await storedAlbum(created.body.data.id as number);
      expect(first?.cover).to.equal(null);
      expect(first?.photos).to.deep.equal([keep.id]);
      expect(first?.anything).to.deep.equal([]);
      expect((first?.figures as Array<{ image: unknown }>).map((f) => f.image)).to.deep.equal([null, keep.id]);
      expect((first?.body as Array<{ image: unknown }>)[0]!.image).to.equal(null);
      expect((await storedAlbum(other.body.data.id as number))?.cover).to.equal(null);
      const again = await request(media.service.app).delete(`/api/upload/files/${doomed.id}`).set(media.auth);
      expect(again.status).to.equal(404);
      expect(again.body.error.message).to.equal('file.notFound');
    });
  });
});
