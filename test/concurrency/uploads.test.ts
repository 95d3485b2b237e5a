// Parallel uploads into one entry (`ref`, `refId`, `field`) or under one file name, parallel
// replacements of one file, a delete while its file is being read, over HTTP, then what is stored
// checked with the service's own models and on disk: every acknowledged file is in the entry, a
// record describes the bytes stored, no upload overwrites another, and what did not land leaves
// no file behind.
import { readFile } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { ALBUM_UID, createMediaApp, png, type MediaApp } from '../helpers/media-app.js';

describe('concurrent uploads into one entry', function () {
  this.timeout(60_000);
  let media: MediaApp;
  let image: Buffer;
  before(async () => {
    media = await createMediaApp();
    image = await png(20, 20);
  });
  after(() => media.service.close());

  const album = async (data: object): Promise<number> => {
    const res = await request(media.service.app).post('/api/albums').set(media.auth).send({ data });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.id as number;
  };
  const stored = async (id: number) =>
    (await media.service.context.models.collection(ALBUM_UID).findOne({ _id: id as never })) as Record<
      string,
      unknown
    > | null;
  const uploadInto = (ref: string, refId: number, field: string, name: string) =>
    request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .attach('files', image, name)
      .field('ref', ref)
      .field('refId', String(refId))
      .field('field', field);
  const fileIds = async (): Promise<number[]> =>
    (await media.service.context.models.collection('plugin::upload.file').find({}).toArray()).map((f) => Number(f._id));
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('24 parallel uploads into a multiple media attribute and a component of one entry all land', async () => {
    const id = await album({ title: 'parallel', figures: [{ caption: 'one' }] });
    const figureId = ((await stored(id))?.figures as Array<{ id: number }>)[0]!.id;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 2
          ? uploadInto('shared.figure', figureId, 'image', `figure-${i}.png`)
          : uploadInto(ALBUM_UID, id, 'photos', `photo-${i}.png`),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(24).fill(200));
    const photoIds = answers.filter((_, i) => i % 3 !== 2).map((a) => a.body[0].id as number);
    const entry = await stored(id);
    expect(sorted(entry?.photos as number[])).to.deep.equal(sorted(photoIds));
    // a single media attribute holds the last upload that wrote it: one of the acknowledged ones
    const figureIds = answers.filter((_, i) => i % 3 === 2).map((a) => a.body[0].id as number);
    expect(figureIds).to.include((entry?.figures as Array<{ image: number }>)[0]!.image);
  });

  it('an upload racing the deletion of its entry is stored and attached, or answered 400 with nothing stored', async () => {
    const id = await album({ title: 'doomed' });
    const before = await fileIds();
    const [deleted, ...uploads] = await Promise.all([
      request(media.service.app).delete(`/api/albums/${id}`).set(media.auth),
      ...Array.from({ length: 10 }, (_, i) => uploadInto(ALBUM_UID, id, 'photos', `late-${i}.png`)),
    ]);
    expect(deleted.status).to.equal(200);
    for (const answer of uploads) expect([200, 400]).to.include(answer.status);
    const acknowledged = uploads.filter((a) => a.status === 200).map((a) => a.body[0].id as number);
    const added = (await fileIds()).filter((f) => !before.includes(f));
    expect(sorted(added)).to.deep.equal(sorted(acknowledged));
    expect(await stored(id)).to.equal(null);
  });

  const record = async (id: number) =>
    (await media.service.context.models.collection('plugin::upload.file').findOne({ _id: id as never })) as {
      url: string;
      hash: string;
      width: number;
      height: number;
    } | null;
  const replace = async (id: number, width: number, height: number) =>
    request(media.service.app)
      .post(`/api/upload?id=${id}`)
      .set(media.auth)
      .attach('files', await png(width, height), `replacement-${width}.png`);

  it('parallel replacements of one file all answer 200, and the record describes the bytes stored', async () => {
    const first = await uploadInto(ALBUM_UID, await album({ title: 'replaced' }), 'photos', 'original.png');
    const id = first.body[0].id as number;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(range(0, 5).map((i) => replace(id, 100 + 40 * i + round, 90 + 10 * i)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(6).fill(200));
      const stored = await record(id);
      const bytes = await readFile(join(media.uploads, String(stored?.url).replace(/^\/uploads\//, '')));
      const { width, height } = await sharp(bytes).metadata();
      expect([width, height]).to.deep.equal([stored?.width, stored?.height]);
    }
  });

  it('parallel deletes of one file: one answers the record, the others 404; no bytes stay', async () => {
    const first = await uploadInto(ALBUM_UID, await album({ title: 'deleted once' }), 'photos', 'once.png');
    const id = first.body[0].id as number;
    const hash = (await record(id))?.hash;
    const answers = await Promise.all(
      range(0, 5).map(() => request(media.service.app).delete(`/api/upload/files/${id}`).set(media.auth)),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 404, 404, 404, 404, 404]);
    expect(answers.find((a) => a.status === 200)?.body).to.include({ id, hash });
    for (const answer of answers.filter((a) => a.status === 404))
      expect(answer.body.error).to.include({ name: 'NotFoundError', message: 'file.notFound' });
    expect(await record(id)).to.equal(null);
    expect((await media.stored()).filter((name) => name.includes(String(hash)))).to.deep.equal([]);
  });

  it('a replacement racing the deletion of its file leaves neither the record nor bytes', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await uploadInto(ALBUM_UID, await album({ title: 'gone' }), 'photos', `gone-${round}.png`);
      const id = first.body[0].id as number;
      const hash = (await record(id))?.hash;
      const [deleted, ...replaced] = await Promise.all([
        request(media.service.app).delete(`/api/upload/files/${id}`).set(media.auth),
        ...range(0, 3).map((i) => replace(id, 60 + i, 60)),
      ]);
      expect(deleted.status).to.equal(200);
      for (const answer of replaced) expect([200, 404]).to.include(answer.status);
      expect(await record(id)).to.equal(null);
      expect((await media.stored()).filter((name) => name.includes(String(hash)))).to.deep.equal([]);
    }
  });

  it('parallel uploads of one file name get distinct hashes: no file, format or record overwrites another', async () => {
    const texts = range(0, 15).map((i) => Buffer.from(`document number ${i}\n`.repeat(50 + i)));
    const images = await Promise.all(
      range(0, 7).map((i) =>
        sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 30 * i, g: 90, b: 200 - 20 * i } } })
          .png()
          .toBuffer(),
      ),
    );
    const send = (bytes: Buffer, name: string) =>
      request(media.service.app).post('/api/upload').set(media.auth).attach('files', bytes, name);
    const answers = await Promise.all([
      ...texts.map((bytes) => send(bytes, 'same name.txt')),
      ...images.map((bytes) => send(bytes, 'same name.png')),
    ]);
    expect(answers.map((a) => a.status)).to.deep.equal(Array(texts.length + images.length).fill(200));
    const files = answers.map((a) => a.body[0] as { id: number; hash: string; url: string; formats: null | object });
    expect(new Set(files.map((f) => f.hash)).size).to.equal(files.length);
    for (const file of files) expect(file.hash).to.match(/^same_name_[0-9a-f]{10}$/);
    for (const [i, bytes] of texts.entries()) {
      const served = await request(media.service.app).get(files[i]!.url);
      expect(served.text, files[i]!.url).to.equal(bytes.toString());
    }
    for (const [i, bytes] of images.entries()) {
      const file = files[texts.length + i] as { url: string; formats: { thumbnail: { url: string } } };
      const stored = await readFile(join(media.uploads, file.url.replace(/^\/uploads\//, '')));
      const [original, thumbnail] = await Promise.all([
        sharp(stored).stats(),
        sharp(await readFile(join(media.uploads, file.formats.thumbnail.url.replace(/^\/uploads\//, '')))).stats(),
      ]);
      const expected = await sharp(bytes).stats();
      // each stored image and its thumbnail are of its own colour
      expect(Math.round(original.channels[0]!.mean)).to.equal(Math.round(expected.channels[0]!.mean));
      expect(Math.round(thumbnail.channels[0]!.mean)).to.equal(Math.round(expected.channels[0]!.mean));
    }
  });

  it('a delete racing reads of its file: reads under way get the whole bytes, later ones 404, nothing is left', async () => {
    const server: Server = createServer(media.service.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    /** a GET whose body is read only once `go` settles: its status, and the bytes it then reads */
    const slowRead = (path: string, go: Promise<unknown>) =>
      new Promise<{ status: number; bytes: Promise<number> }>((resolve, reject) => {
        const req = get({ host: '127.0.0.1', port, path }, (res) => {
          res.pause();
          const bytes = go.then(
            () =>
              new Promise<number>((done, fail) => {
                let count = 0;
                res.on('data', (chunk: Buffer) => (count += chunk.length));
                res.on('end', () => done(count));
                res.on('error', fail);
                res.resume();
              }),
          );
          resolve({ status: res.statusCode ?? 0, bytes });
        });
        req.on('error', reject);
      });
    try {
      const bytes = Buffer.alloc(4 * 1024 * 1024, 'abcdefgh');
      for (let round = 0; round < 2; round++) {
        const res = await request(media.service.app)
          .post('/api/upload')
          .set(media.auth)
          .attach('files', bytes, `raced-${round}.txt`);
        expect(res.status).to.equal(200);
        const { id, url, hash } = res.body[0] as { id: number; url: string; hash: string };
        let deleteDone!: (value: unknown) => void;
        const afterDelete = new Promise((resolve) => (deleteDone = resolve));
        const reads = await Promise.all(range(0, 3).map(() => slowRead(url, afterDelete)));
        expect(reads.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
        // the reads have their answers' heads and wait: the file goes meanwhile
        const deleted = await request(media.service.app).delete(`/api/upload/files/${id}`).set(media.auth);
        expect(deleted.status).to.equal(200);
        expect(await record(id)).to.equal(null);
        expect((await media.stored()).filter((name) => name.includes(hash))).to.deep.equal([]);
        deleteDone(null);
        expect(await Promise.all(reads.map((r) => r.bytes))).to.deep.equal(Array(4).fill(bytes.length));
        expect((await request(media.service.app).get(url)).status).to.equal(404);
        expect((await request(media.service.app).get(`/api/upload/files/${id}`).set(media.auth)).status).to.equal(404);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
