// A replacement (`POST /api/upload?id=`) that fails after the new bytes were processed (here the
// app's `beforeUpdate` hook of the file model refuses the record's change) leaves the file the
// client had: its record, its bytes and its formats, served as before, and no bytes of the refused
// replacement on disk. A replacement that succeeds keeps Strapi's url and leaves only the new bytes.
import { readFile } from 'node:fs/promises';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { PENDING_REPLACEMENT, PENDING_REPLACEMENT_FILTER } from '../../src/plugins/upload/replace-file.js';
import { createMediaApp, png, type MediaApp } from '../helpers/media-app.js';
import { indexUsed } from '../engine/helpers/explain.js';

const FILE_UID = 'plugin::upload.file';

/** the app refuses to record a file named `refused.png` (a failure between storing the bytes and the record) */
const REFUSING_INDEX = `
module.exports = {
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['${FILE_UID}'],
      beforeUpdate(event) {
        if (event.params.data && event.params.data.name === 'refused.png') throw new Error('the app refuses this file');
      },
    });
  },
};
`;

interface FileAnswer {
  id: number;
  hash: string;
  url: string;
  width: number;
  formats: Record<string, { url: string; width: number }> | null;
}

describe('upload replacement that fails half-way', function () {
  this.timeout(30_000);
  let media: MediaApp;
  before(async () => {
    media = await createMediaApp({}, {}, (dir) => {
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'src', 'index.js'), REFUSING_INDEX);
    });
  });
  after(() => media.service.close());

  const upload = async (bytes: Buffer, name: string): Promise<FileAnswer> => {
    const res = await request(media.service.app).post('/api/upload').set(media.auth).attach('files', bytes, name);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body[0] as FileAnswer;
  };
  const replace = (id: number, bytes: Buffer, name: string) =>
    request(media.service.app).post(`/api/upload?id=${id}`).set(media.auth).attach('files', bytes, name);
  const served = async (url: string): Promise<Buffer> => {
    const res = await request(media.service.app)
      .get(url)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status, url).to.equal(200);
    return res.body as Buffer;
  };
  const onDisk = (url: string) => readFile(join(media.uploads, url.replace(/^\/uploads\//, '')));

  it('a replacement the record refuses leaves the old record, bytes and formats, served as before', async () => {
    const original = await png(600, 400);
    const file = await upload(original, 'kept.png');
    const stored = await onDisk(file.url);
    const thumbnail = await onDisk(file.formats!.thumbnail!.url);
    const filesBefore = await media.stored();
    const refused = await replace(file.id, await png(900, 700), 'refused.png');
    expect(refused.status).to.be.within(400, 599);
    const record = await media.service.context.models.collection(FILE_UID).findOne({ _id: file.id as never });
    expect(record).to.include({ hash: file.hash, url: file.url, width: 600, name: 'kept.png' });
    expect((await served(file.url)).equals(stored)).to.equal(true);
    expect((await served(file.formats!.thumbnail!.url)).equals(thumbnail)).to.equal(true);
    expect((await served(file.formats!.small!.url)).length).to.be.greaterThan(0);
    // nothing of the refused replacement stays on disk
    expect(await media.stored()).to.deep.equal(filesBefore);
  });

  it('a replacement that lands keeps the url; the new bytes and formats are served, the old ones are gone', async () => {
    const file = await upload(await png(600, 400), 'first.png');
    const replaced = await replace(file.id, await png(300, 200), 'second.png');
    expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
    const answer = replaced.body as FileAnswer;
    expect(answer).to.include({ id: file.id, hash: file.hash, url: file.url, width: 300 });
    // 300 px wide: a thumbnail only, the old small format goes
    expect(Object.keys(answer.formats ?? {})).to.deep.equal(['thumbnail']);
    expect(answer.formats!.thumbnail!.url).to.equal(file.formats!.thumbnail!.url);
    expect((await served(file.url)).equals(await onDisk(file.url))).to.equal(true);
    expect((await request(media.service.app).get(file.formats!.small!.url)).status).to.equal(404);
    expect((await media.stored()).filter((name) => name.includes(file.hash)).sort()).to.deep.equal(
      [`${file.hash}.png`, `thumbnail_${file.hash}.png`].sort(),
    );
  });
});

describe("the sweep's look-up of pending replacements", function () {
  this.timeout(30_000);
  let media: MediaApp;
  before(async () => {
    media = await createMediaApp();
  });
  after(() => media.service.close());

  it('is served by an index: it reads only the records marked, not every file record', async () => {
    const files = media.service.context.models.collection(FILE_UID);
    for (const name of ['one.png', 'two.png', 'three.png']) {
      const res = await request(media.service.app)
        .post('/api/upload')
        .set(media.auth)
        .attach('files', await png(8, 8), name);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    const explain = async () =>
      (await media.service.context.connection.db!.command({
        explain: { find: files.collectionName, filter: PENDING_REPLACEMENT_FILTER, projection: { _id: 1 } },
        verbosity: 'executionStats',
      })) as { executionStats: { nReturned: number; totalDocsExamined: number } };
    const none = await explain();
    expect(indexUsed(none)).to.equal('pending_replacement');
    expect(none.executionStats).to.include({ nReturned: 0, totalDocsExamined: 0 });
    // a record whose replacement was committed but not finished (what a crash leaves)
    const [marked] = await files.find({}).sort({ _id: 1 }).limit(1).toArray();
    await files.updateOne(
      { _id: marked!._id },
      { $set: { [PENDING_REPLACEMENT]: { token: 'a-token', moves: [], obsolete: {} } } },
    );
    const one = await explain();
    expect(one.executionStats).to.include({ nReturned: 1, totalDocsExamined: 1 });
    await files.updateOne({ _id: marked!._id }, { $unset: { [PENDING_REPLACEMENT]: '' } });
  });
});
