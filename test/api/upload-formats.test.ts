// Image formats as Strapi 4.26's image service makes them (sharp 0.33.5, the same as Strapi's):
// which images get dimensions, which are re-encoded, which get a thumbnail and responsive formats,
// the shape of `formats`, and the Media Library settings `responsiveDimensions` and
// `autoOrientation` from config.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { createMediaApp, jpeg, type MediaApp } from '../helpers/media-app.js';

type Format = Record<string, unknown> & { hash: string; url: string; sizeInBytes: number; size: number };
type FileAnswer = Record<string, unknown> & {
  hash: string;
  url: string;
  ext: string;
  size: number;
  width: number | null;
  height: number | null;
  formats: Record<string, Format> | null;
};

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 90 } } });

describe('upload plugin: image formats', function () {
  this.timeout(30_000);
  let media: MediaApp;
  const send = async (app: MediaApp, bytes: Buffer, filename: string): Promise<FileAnswer> => {
    const res = await request(app.service.app).post('/api/upload').set(app.auth).attach('files', bytes, filename);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body[0] as FileAnswer;
  };
  const onDisk = (app: MediaApp, url: string) => join(app.uploads, url.replace(/^\/uploads\//, ''));

  before(async () => {
    media = await createMediaApp();
  });
  after(() => media.service.close());

  it('formats: { ext, mime, hash, path, size (KB, 2 decimals), width, height, sizeInBytes, name, url }, each on disk', async () => {
    const file = await send(media, await solid(1200, 800).webp().toBuffer(), 'Wide Shot.webp');
    expect(file).to.include({ width: 1200, height: 800, mime: 'image/webp', ext: '.webp' });
    expect(Object.keys(file.formats ?? {})).to.have.members(['thumbnail', 'large', 'medium', 'small']);
    const expected: Record<string, [number, number]> = {
      thumbnail: [234, 156],
      large: [1000, 667],
      medium: [750, 500],
      small: [500, 333],
    };
    for (const [key, format] of Object.entries(file.formats!)) {
      expect(Object.keys(format).sort(), key).to.deep.equal(
        ['ext', 'hash', 'height', 'mime', 'name', 'path', 'size', 'sizeInBytes', 'url', 'width'].sort(),
      );
      expect(format, key).to.include({
        name: `${key}_Wide Shot.webp`,
        hash: `${key}_${file.hash}`,
        ext: '.webp',
        mime: 'image/webp',
        path: null,
        url: `/uploads/${key}_${file.hash}.webp`,
        width: expected[key]![0],
        height: expected[key]![1],
      });
      const bytes = (await stat(onDisk(media, format.url))).size;
      expect(format.sizeInBytes, key).to.equal(bytes);
      expect(format.size, key).to.equal(Math.round(bytes / 10) / 100);
    }
  });

  it('GIF: dimensions, a thumbnail and the breakpoints it exceeds, the original never re-encoded', async () => {
    const gif = await solid(600, 400).gif().toBuffer();
    const file = await send(media, gif, 'anim.gif');
    expect(file).to.include({ width: 600, height: 400, mime: 'image/gif' });
    expect(Object.keys(file.formats ?? {})).to.have.members(['thumbnail', 'small']);
    expect(file.formats!.small).to.include({ width: 500, height: 333, ext: '.gif', mime: 'image/gif' });
    expect(Buffer.compare(await readFile(onDisk(media, file.url)), gif)).to.equal(0);
  });

  it('SVG: dimensions, no formats, stored as sent', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="teal"/></svg>',
    );
    const file = await send(media, svg, 'drawing.svg');
    expect(file).to.include({ width: 640, height: 480, mime: 'image/svg+xml', formats: null });
    expect(Buffer.compare(await readFile(onDisk(media, file.url)), svg)).to.equal(0);
  });

  it('AVIF (sharp reads it as heif): stored as sent, without dimensions or formats, as Strapi 4.26', async () => {
    const avif = await solid(1200, 800).avif().toBuffer();
    const file = await send(media, avif, 'photo.avif');
    expect(file).to.include({ mime: 'image/avif', ext: '.avif', width: null, height: null, formats: null });
    expect(Buffer.compare(await readFile(onDisk(media, file.url)), avif)).to.equal(0);
    // one that sharp cannot decode is still refused
    const broken = await request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .attach('files', avif.subarray(0, 200), 'broken.avif');
    expect(broken.status).to.equal(400);
    expect(broken.body.error.message).to.equal('File is not a valid image');
  });

  it('an image no larger than the thumbnail box gets no formats (null); one just taller gets a thumbnail', async () => {
    expect((await send(media, await solid(245, 156).png().toBuffer(), 'box.png')).formats).to.equal(null);
    const tall = await send(media, await solid(100, 200).png().toBuffer(), 'tall.png');
    expect(Object.keys(tall.formats ?? {})).to.deep.equal(['thumbnail']);
    expect(tall.formats!.thumbnail).to.include({ width: 78, height: 156 });
  });

  describe('settings from config: responsiveDimensions false, autoOrientation true', () => {
    let tuned: MediaApp;
    before(async () => {
      tuned = await createMediaApp({ responsiveDimensions: false, autoOrientation: true });
    });
    after(() => tuned.service.close());

    it('only the thumbnail without responsiveDimensions', async () => {
      const file = await send(tuned, await solid(1200, 800).png().toBuffer(), 'big.png');
      expect(Object.keys(file.formats ?? {})).to.deep.equal(['thumbnail']);
    });

    it('a JPEG turned by its EXIF orientation is stored upright, its formats too', async () => {
      const turned = await sharp(await jpeg(600, 300))
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer();
      const file = await send(tuned, turned, 'turned.jpg');
      expect(file).to.include({ width: 300, height: 600 });
      expect(file.formats!.thumbnail).to.include({ width: 78, height: 156 });
      const stored = await sharp(await readFile(onDisk(tuned, file.url))).metadata();
      expect([stored.width, stored.height, stored.orientation ?? 1]).to.deep.equal([300, 600, 1]);
    });
  });

  it('the default app leaves the EXIF orientation alone (autoOrientation off)', async () => {
    const turned = await sharp(await jpeg(600, 300))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const file = await send(media, turned, 'turned.jpg');
    expect(file).to.include({ width: 600, height: 300 });
  });
});
