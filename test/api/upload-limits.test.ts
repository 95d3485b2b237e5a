// The two limits of an upload, as Strapi 4.26 has them: `strapi::body`'s formidable `maxFileSize`
// (config/middlewares; the file bytes of the whole request, koa-body's 413 `FileTooBig`) and the
// upload plugin's `sizeLimit` (one file; its 413 `<name> exceeds size limit of …`). Whatever is
// refused, or cut off by the client, leaves no file on disk, no record and no temporary directory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { ALBUM_UID, createMediaApp, TEXT, type MediaApp } from '../helpers/media-app.js';
import { startUpError } from '../helpers/start-up-error.js';

const SIZE_LIMIT = 50_000;
const MAX_FILE_SIZE = 120_000;

async function workDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('content-service-upload-'));
}

// a temporary directory of this suite's own, so that other processes' uploads do not show in workDirs()
const systemTmp = process.env.TMPDIR;
const ownTmp = mkdtempSync(join(tmpdir(), 'cs-upload-limits-'));

/** Waits until `check` holds (a server-side cleanup after the client left), at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('upload limits: strapi::body maxFileSize and the plugin sizeLimit', function () {
  this.timeout(30_000);
  let media: MediaApp;
  const upload = () => request(media.service.app).post('/api/upload').set(media.auth);
  const fileCount = () => media.service.context.models.collection('plugin::upload.file').countDocuments({});
  const albumCount = () => media.service.context.models.collection(ALBUM_UID).countDocuments({});

  before(async () => {
    process.env.TMPDIR = ownTmp;
    media = await createMediaApp({ sizeLimit: SIZE_LIMIT, sizeOptimization: false }, {}, (dir) =>
      writeFileSync(
        join(dir, 'config', 'middlewares.json'),
        JSON.stringify([
          'strapi::logger',
          'strapi::errors',
          'strapi::security',
          'strapi::cors',
          'strapi::poweredBy',
          'strapi::session',
          'strapi::query',
          { name: 'strapi::body', config: { formidable: { maxFileSize: MAX_FILE_SIZE } } },
          'strapi::favicon',
          'strapi::public',
        ]),
      ),
    );
  });
  after(async () => {
    await media.service.close();
    if (systemTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = systemTmp;
    rmSync(ownTmp, { recursive: true, force: true });
  });

  let before_: { files: number; albums: number };
  beforeEach(async () => {
    before_ = { files: await fileCount(), albums: await albumCount() };
  });
  const expectNothingLeft = async () => {
    expect(await fileCount()).to.equal(before_.files);
    expect(await albumCount()).to.equal(before_.albums);
    expect(await media.stored()).to.have.length(before_.files);
    expect(await workDirs()).to.deep.equal([]);
  };
  const tooBig = { status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig', details: {} };

  it("a file over the body's maxFileSize: koa-body's 413 FileTooBig, nothing stored", async () => {
    const res = await upload().attach('files', Buffer.alloc(MAX_FILE_SIZE + 1, 1), 'huge.bin');
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({ data: null, error: tooBig });
    await expectNothingLeft();
  });

  it('several files each under sizeLimit but together over maxFileSize: FileTooBig (formidable counts the request)', async () => {
    const part = Buffer.alloc(45_000, 2);
    const res = await upload()
      .attach('files', part, 'a.bin')
      .attach('files', part, 'b.bin')
      .attach('files', part, 'c.bin');
    expect(res.status).to.equal(413);
    expect(res.body.error).to.deep.equal(tooBig);
    await expectNothingLeft();
  });

  it("one file of several over sizeLimit: the plugin's 413 naming it, none of them stored", async () => {
    const res = await upload()
      .attach('files', TEXT, 'small.txt')
      .attach('files', Buffer.alloc(SIZE_LIMIT + 1, 3), 'over.bin')
      .attach('files', TEXT, 'after.txt');
    expect(res.status).to.equal(413);
    expect(res.body.error).to.deep.equal({
      status: 413,
      name: 'PayloadTooLargeError',
      message: 'over.bin exceeds size limit of 50 KB.',
      details: {},
    });
    await expectNothingLeft();
  });

  it('the 413 of sizeLimit names the file by its fileInfo name, as Strapi (the info sent after the file too)', async () => {
    const single = await upload()
      .attach('files', Buffer.alloc(SIZE_LIMIT + 1, 3), 'sent.bin')
      .field('fileInfo', JSON.stringify({ name: 'Chosen name.bin' }));
    expect(single.status).to.equal(413);
    expect(single.body.error.message).to.equal('Chosen name.bin exceeds size limit of 50 KB.');
    const several = await upload()
      .attach('files', TEXT, 'a.txt')
      .attach('files', Buffer.alloc(SIZE_LIMIT + 1, 3), 'b.bin')
      .field('fileInfo', JSON.stringify([{ name: 'first.txt' }, { caption: 'no name' }]));
    expect(several.status).to.equal(413);
    expect(several.body.error.message).to.equal('b.bin exceeds size limit of 50 KB.');
    await expectNothingLeft();
  });

  it('a file over sizeLimit in a request over maxFileSize: the body parser answers first (FileTooBig)', async () => {
    const res = await upload()
      .attach('files', Buffer.alloc(SIZE_LIMIT + 1, 4), 'over.bin')
      .attach('files', Buffer.alloc(80_000, 5), 'more.bin');
    expect(res.status).to.equal(413);
    expect(res.body.error).to.deep.equal(tooBig);
    await expectNothingLeft();
  });

  it('a replacement over a limit (?id=): 413, the file keeps its record and its bytes', async () => {
    const first = await upload().attach('files', TEXT, 'kept.txt');
    expect(first.status).to.equal(200);
    const kept = first.body[0] as { id: number; url: string };
    before_ = { files: await fileCount(), albums: await albumCount() };
    for (const [size, message] of [
      [SIZE_LIMIT + 1, 'replacement.bin exceeds size limit of 50 KB.'],
      [MAX_FILE_SIZE + 1, 'FileTooBig'],
    ] as const) {
      const res = await upload().query({ id: kept.id }).attach('files', Buffer.alloc(size, 8), 'replacement.bin');
      expect(res.status).to.equal(413);
      expect(res.body.error.message).to.equal(message);
      await expectNothingLeft();
      const now = await request(media.service.app).get(`/api/upload/files/${kept.id}`).set(media.auth);
      expect(now.body).to.deep.equal(first.body[0]);
      expect((await request(media.service.app).get(kept.url)).text).to.equal(TEXT.toString());
    }
  });

  it('the same limits on an entry written with its files (files.<field>): no entry, no file', async () => {
    const res = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .field('data', JSON.stringify({ title: 'too big' }))
      .attach('files.anything', Buffer.alloc(MAX_FILE_SIZE + 10, 6), 'huge.bin');
    expect(res.status).to.equal(413);
    expect(res.body.error).to.deep.equal(tooBig);
    await expectNothingLeft();
  });

  it('files of exactly the limits are taken; an empty file among others is stored (Strapi: size 0)', async () => {
    const exact = await upload().attach('files', Buffer.alloc(SIZE_LIMIT, 65), 'exact.txt');
    expect(exact.status, JSON.stringify(exact.body)).to.equal(200);
    expect(exact.body[0]).to.include({ size: 50, mime: 'text/plain' });
    const res = await upload().attach('files', Buffer.alloc(0), 'empty.txt').attach('files', TEXT, 'text.txt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.map((f: { name: string; size: number }) => [f.name, f.size])).to.deep.equal([
      ['empty.txt', 0],
      ['text.txt', 0.04],
    ]);
    const stored = await request(media.service.app).get(res.body[0].url);
    expect(stored.status).to.equal(200);
    expect(stored.text ?? '').to.equal('');
  });

  it('a request cut off by the client mid-file leaves no file, no record and no temporary directory', async () => {
    const server: Server = createServer(media.service.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const boundary = 'cs-abort-boundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${media.auth.Authorization}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 40_000 + 64}\r\n\r\n`,
      );
      socket.write(head);
      socket.write(Buffer.alloc(20_000, 7));
      // the server has begun writing the part to its temporary directory
      await eventually(async () => (await workDirs()).length > 0);
      socket.destroy();
      await eventually(async () => (await workDirs()).length === 0);
      await expectNothingLeft();
      // the service goes on answering
      const after = await upload().attach('files', TEXT, 'after-abort.txt');
      expect(after.status).to.equal(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a formidable.maxFileSize that is not a positive integer stops the start, naming the key', async () => {
    const message = await startUpError({
      'config/middlewares.js': `module.exports = [
        'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy',
        'strapi::session', 'strapi::query',
        { name: 'strapi::body', config: { formidable: { maxFileSize: '10mb' } } },
        'strapi::favicon', 'strapi::public',
      ];`,
    });
    expect(message).to.match(
      /config\/middlewares\.js \(key "strapi::body\.config\.formidable\.maxFileSize"\): must be a positive integer/,
    );
  });
});
