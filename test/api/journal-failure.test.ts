import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createServer } from '../../src/app.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

function journalBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('journal.'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const post = (url: string, title: string) =>
  fetch(`${url}/api/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { title, body: 'b'.repeat(1000) } }),
  });

describe('embedded engine: a failed journal write (disk full) over HTTP', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let appDir: string;
  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's journal
    appDir = await writeTempApp({
      api: {
        note: collectionTypeSchema('note', 'notes', { title: { type: 'string' }, body: { type: 'text' } }),
      },
      config: { permissions: { public: ['api::note.note.find', 'api::note.note.create'] } },
    });
  });
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-journal-full-'));
    dirs.push(dir);
    return dir;
  };

  it('answers 503 in Strapi error shape, refuses writes until restart, keeps reads, logs it; nothing acknowledged is lost', async () => {
    // how large the journal is once the service has started, so that the limit leaves room for a few notes
    const probeDir = dataDir();
    await (await createServer({ appDir, config: { database: { dataDir: probeDir } } })).stop();
    const limitBlocks = Math.ceil((journalBytes(probeDir) + 12 * 1024) / 512);

    const dir = dataDir();
    const child = await startServiceProcess(appDir, dir, `ulimit -f ${limitBlocks};`);
    const acknowledged: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await post(child.url, `note ${i}`);
      if (res.status === 200) acknowledged.push(((await res.json()) as { data: { id: number } }).data.id);
      else refused = res;
    }
    expect(acknowledged.length).to.be.greaterThan(2);
    expect(refused?.status).to.equal(503);
    const body = (await refused?.json()) as { data: null; error: { status: number; name: string; message: string } };
    expect(body.data).to.equal(null);
    expect(body.error).to.include({ status: 503, name: 'ServiceUnavailableError' });
    expect(body.error.message)
      .to.match(/journal write failed/)
      .and.match(/refuses writes until/);
    expect((await post(child.url, 'later')).status).to.equal(503);
    const read = await fetch(`${child.url}/api/notes?pagination[pageSize]=100`);
    expect(read.status).to.equal(200);
    const listed = ((await read.json()) as { data: Array<{ id: number }> }).data.map((n) => n.id);
    expect(listed).to.deep.equal(acknowledged);
    const engineLines = () =>
      child
        .output()
        .split('\n')
        .filter((line) => line.includes('"engine":"journal.write-failed"'));
    // the child's output arrives through a pipe: on a busy machine the line may still be on its way
    for (let waited = 0; engineLines().length === 0 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = engineLines();
    expect(logged, 'the engine event reached the service log').to.have.length(1);
    expect(JSON.parse(logged[0] as string)).to.include({ level: 50 });
    child.process.kill('SIGKILL');

    await new Promise((resolve) => child.process.once('exit', resolve));
    const restarted = await createServer({ appDir, config: { database: { dataDir: dir } } });
    try {
      const after = await request(restarted.app).get('/api/notes?pagination[pageSize]=100');
      expect((after.body as { data: Array<{ id: number }> }).data.map((n) => n.id)).to.deep.equal(acknowledged);
      const more = await request(restarted.app)
        .post('/api/notes')
        .send({ data: { title: 'after restart' } });
      expect(more.status).to.equal(200);
    } finally {
      await restarted.stop();
    }
  });
});
