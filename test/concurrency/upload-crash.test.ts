// Stored bytes and file records across a `kill -9` of the service and failures between the two:
// a replacement killed before its record switched leaves the old file whole and served; bytes an
// upload or a replacement noted and stored without a record are swept (older than the grace period
// only; files it did not note never); a replacement committed but not finished is finished.
import { mkdtempSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createServer, type ContentService } from '../../src/app.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createMediaApp, png, type MediaApp } from '../helpers/media-app.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { writeTempApp } from '../helpers/temp-app.js';

const FILE_UID = 'plugin::upload.file';

/**
 * The app's hooks on the file model stand for a crash at the worst moment: the record of
 * `stalled.png` is never written (its bytes are), and the replacement named `killed.png` kills the
 * process once its bytes are stored, before its record switches.
 */
const CRASHING_INDEX = `
module.exports = {
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['${FILE_UID}'],
      async beforeCreate(event) {
        if (event.params.data.name === 'stalled.png') await new Promise(() => {});
      },
      beforeUpdate(event) {
        if (event.params.data.name === 'killed.png') process.kill(process.pid, 'SIGKILL');
      },
    });
  },
};
`;

const waitFor = async (what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('upload bytes and records across a kill -9', function () {
  this.timeout(60_000);
  let uploads: string;
  let dataDir: string;
  let appDir: string;
  let restarted: ContentService | undefined;
  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
    uploads = mkdtempSync(join(tmpdir(), 'cs-upload-crash-files-'));
    dataDir = mkdtempSync(join(tmpdir(), 'cs-upload-crash-data-'));
    appDir = await writeTempApp({
      config: {
        plugins: {
          i18n: { enabled: false },
          'users-permissions': { config: { ratelimit: { enabled: false } } },
          // no grace: the restart sweeps at once what no record names
          upload: { config: { providerOptions: { directory: uploads }, sweep: { graceMs: 0 } } },
        },
        permissions: { public: ['plugin::upload.content-api.upload'] },
      },
      files: { 'src/index.js': CRASHING_INDEX },
    });
  });
  after(async () => {
    await restarted?.stop();
    for (const dir of [uploads, dataDir, appDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a replacement killed before its record switched leaves the old file; the restart sweeps the orphaned bytes', async () => {
    const service = await startServiceProcess(appDir, dataDir);
    const exited = new Promise((resolve) => service.process.once('exit', resolve));
    const send = (path: string, bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('files', new Blob([bytes], { type: 'image/png' }), name);
      return fetch(`${service.url}${path}`, { method: 'POST', body: form });
    };
    const kept = await send('/api/upload', await png(600, 400), 'kept.png');
    expect(kept.status).to.equal(200);
    const [file] = (await kept.json()) as Array<{ id: number; hash: string; url: string; formats: object }>;
    const keptNames = (await readdir(uploads)).sort();
    const keptBytes = await readFile(join(uploads, `${file!.hash}.png`));
    // an upload whose bytes are stored and whose record never will be
    void send('/api/upload', await png(30, 30), 'stalled.png').catch(() => null);
    await waitFor(
      'the stalled upload to store its bytes',
      async () => (await readdir(uploads)).length > keptNames.length,
    );
    const killed = await send(`/api/upload?id=${file!.id}`, await png(300, 300), 'killed.png').catch(() => null);
    expect(killed).to.equal(null);
    await exited;
    // both left bytes no record names: the stalled upload's, the killed replacement's and its thumbnail
    expect((await readdir(uploads)).length).to.equal(keptNames.length + 3);

    const { logger, lines } = capturingLogger('warn');
    restarted = await createServer({ appDir, logger, config: { database: { dataDir } } });
    expect((await readdir(uploads)).sort()).to.deep.equal(keptNames);
    const swept = lines.find((line) => line.level === WARN && /upload: removed 3 file\(s\)/.test(String(line.msg)));
    expect(swept, JSON.stringify(lines)).to.not.equal(undefined);
    const record = await restarted.context.models.collection(FILE_UID).findOne({ _id: file!.id as never });
    expect(record).to.include({ name: 'kept.png', hash: file!.hash, url: file!.url, width: 600 });
    const served = await request(restarted.app).get(file!.url).buffer(true);
    expect(served.status).to.equal(200);
    expect(Buffer.from(served.body as Buffer).equals(keptBytes)).to.equal(true);
    expect(await restarted.context.models.collection(FILE_UID).countDocuments({})).to.equal(1);
  });
});

describe('the upload sweep of a running service', function () {
  this.timeout(30_000);
  let media: MediaApp;
  before(async () => {
    media = await createMediaApp({ sweep: { graceMs: 60_000, intervalMs: 200 } });
  });
  after(() => media.service.close());

  const backdate = (name: string, ms: number) => {
    const when = new Date(Date.now() - ms);
    return utimes(join(media.uploads, name), when, when);
  };

  it('removes the noted bytes no record names once older than the grace period; files it did not note stay', async () => {
    const res = await request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .attach('files', await png(400, 300), 'recorded.png');
    expect(res.status).to.equal(200);
    const recorded = res.body[0] as { hash: string };
    // what an upload cut off before its record leaves: its bytes and a format, then its note (the
    // note last: a pass between the note and the first file would find nothing to remove and
    // forget the note, and the files would stay)
    const hash = 'cut_off_0123456789';
    await mkdir(join(media.uploads, 'nested'), { recursive: true });
    const foreign = ['foreign_0123456789.png', '.gitkeep', 'nested/deep_0123456789.png'];
    for (const name of [`${hash}.png`, `thumbnail_${hash}.png`, ...foreign])
      await writeFile(join(media.uploads, name), 'bytes');
    for (const name of [`${hash}.png`, `thumbnail_${hash}.png`, ...foreign, `${recorded.hash}.png`])
      await backdate(name, 2 * 3_600_000);
    const notes = media.service.context.connection.db!.collection('content_service_pending_uploads');
    await notes.insertOne({ _id: 'a-note' as never, hash, at: new Date(Date.now() - 2 * 3_600_000) });
    const cutOff = [`${hash}.png`, `thumbnail_${hash}.png`];
    await waitFor(
      'the sweep',
      async () =>
        !(await media.stored()).some((name) => cutOff.includes(name)) && (await notes.countDocuments({})) === 0,
      5_000,
    );
    // files of another database (no note of this one names them), dotfiles and folders stay
    expect(await media.stored()).to.include.members([
      'foreign_0123456789.png',
      '.gitkeep',
      'nested',
      `${recorded.hash}.png`,
      `thumbnail_${recorded.hash}.png`,
    ]);
    expect((await request(media.service.app).get(`/uploads/${recorded.hash}.png`)).status).to.equal(200);
  });

  it('finishes a replacement whose record was committed by a service that stopped before moving its bytes', async () => {
    const res = await request(media.service.app)
      .post('/api/upload')
      .set(media.auth)
      .attach('files', await png(400, 300), 'pending.png');
    const file = res.body[0] as { id: number; hash: string; url: string; formats: { thumbnail: { hash: string } } };
    // the state a replacement leaves at its commit: new bytes under their own name, the record
    // switched (width 100, no formats) with its marker; the old bytes still under the old names
    const token = 'new_bytes_0123456789';
    const newBytes = await png(100, 80);
    await writeFile(join(media.uploads, `${token}.png`), newBytes);
    await media.service.context.models.collection(FILE_UID).updateOne(
      { _id: file.id as never },
      {
        $set: {
          width: 100,
          height: 80,
          formats: null,
          __replace: {
            token,
            moves: [{ from: { hash: token, ext: '.png' }, to: { hash: file.hash, ext: '.png' } }],
            obsolete: {
              provider: 'local',
              formats: {
                thumbnail: { ...file.formats.thumbnail, ext: '.png', url: `/uploads/thumbnail_${file.hash}.png` },
              },
            },
          },
        },
      },
    );
    await waitFor(
      'the replacement to be finished',
      async () =>
        (await media.service.context.models
          .collection(FILE_UID)
          .countDocuments({ _id: file.id as never, __replace: { $exists: true } })) === 0,
      5_000,
    );
    expect((await readFile(join(media.uploads, `${file.hash}.png`))).equals(newBytes)).to.equal(true);
    expect((await media.stored()).filter((name) => name.includes(file.hash) || name.includes(token))).to.deep.equal([
      `${file.hash}.png`,
    ]);
  });
});
