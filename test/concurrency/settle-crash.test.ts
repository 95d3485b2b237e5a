// A write committed, then `kill -9` before its settling steps ran (docs/ARCHITECTURE.md,
// Concurrency: a link to an exclusive target releases the older owner after its commit). The steps
// are recorded in the write's transaction, so the restart runs them: the target keeps one owner.
// To stop the service exactly there, the app's hook holds a transaction open on the older owner:
// the release, a write outside transactions, waits for its lock while the new link is committed.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createServer, type ContentService } from '../../src/app.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

const PERSON = 'api::person.person';
const DESK = 'api::desk.desk';
const NOTE = 'api::note.note';

/** A note `hold <id>` makes the app open a transaction that updates person <id> and never ends. */
const HOLDING_INDEX = `
module.exports = {
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['${NOTE}'],
      async afterCreate(event) {
        const held = /^hold (\\d+)$/.exec(event.params.data.text || '');
        if (!held) return;
        await new Promise((locked) => {
          strapi.db.transaction(async () => {
            await strapi.entityService.update('${PERSON}', Number(held[1]), { data: { name: 'held' } });
            locked();
            await new Promise(() => {});
          });
        });
      },
    });
  },
};
`;

describe('settling steps of a committed write across a kill -9', function () {
  this.timeout(60_000);
  let dataDir: string;
  let appDir: string;
  let restarted: ContentService | undefined;
  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
    dataDir = mkdtempSync(join(tmpdir(), 'cs-settle-crash-'));
    const actions = (uid: string) => ['find', 'findOne', 'create', 'update'].map((a) => `${uid}.${a}`);
    appDir = await writeTempApp({
      api: {
        person: collectionTypeSchema('person', 'people', {
          name: { type: 'string' },
          desk: { type: 'relation', relation: 'oneToOne', target: DESK, inversedBy: 'person' },
        }),
        desk: collectionTypeSchema('desk', 'desks', {
          label: { type: 'string' },
          person: { type: 'relation', relation: 'oneToOne', target: PERSON, mappedBy: 'desk' },
        }),
        note: collectionTypeSchema('note', 'notes', { text: { type: 'string' } }),
      },
      config: {
        plugins: { i18n: { enabled: false }, 'users-permissions': { config: { ratelimit: { enabled: false } } } },
        permissions: { public: [...actions(PERSON), ...actions(DESK), ...actions(NOTE)] },
      },
      files: { 'src/index.js': HOLDING_INDEX },
    });
  });
  after(async () => {
    await restarted?.stop();
    for (const dir of [dataDir, appDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a link committed but not yet settled: the restart releases the older owner', async () => {
    const service = await startServiceProcess(appDir, dataDir);
    const exited = new Promise((resolve) => service.process.once('exit', resolve));
    try {
      const post = async (path: string, data: object) => {
        const res = await fetch(`${service.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data }),
        });
        expect(res.status, path).to.equal(200);
        return ((await res.json()) as { data: { id: number } }).data.id;
      };
      const desk = await post('/api/desks', { label: 'by the window' });
      const older = await post('/api/people', { name: 'older', desk });
      await post('/api/notes', { text: `hold ${older}` });
      // the newer link commits, then its release of the older owner waits for the held lock
      const newer = fetch(`${service.url}/api/people`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'newer', desk } }),
      }).catch(() => null);
      const started = Date.now();
      let owners: number[] = [];
      while (owners.length < 2 && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const res = await fetch(`${service.url}/api/people?filters[desk][id]=${desk}`);
        owners = ((await res.json()) as { data: Array<{ id: number }> }).data.map((p) => p.id);
      }
      // committed, not settled: two owners of one oneToOne target, and the write has not answered
      expect(owners).to.have.length(2);
      expect(await Promise.race([newer, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))])).to.equal(
        'waiting',
      );
    } finally {
      service.process.kill('SIGKILL');
      await exited;
    }

    const { logger, lines } = capturingLogger('warn');
    restarted = await createServer({ appDir, logger, config: { database: { dataDir } } });
    const people = (await restarted.context.models.collection(PERSON).find({}).toArray()) as Array<
      Record<string, unknown>
    >;
    const owners = people.filter((p) => p.desk !== null && p.desk !== undefined);
    expect(
      owners.map((p) => p.name),
      JSON.stringify(people),
    ).to.deep.equal(['newer']);
    expect(
      lines.some((line) => /settled 1 committed write/.test(String(line.msg))),
      JSON.stringify(lines),
    ).to.equal(true);
  });
});
