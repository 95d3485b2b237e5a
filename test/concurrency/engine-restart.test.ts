// The service on an embedded engine of its own process (`content-service engine --data`), which
// is killed (`kill -9`) in a stream of writes from three clients and started again on the same
// data: the requests the kill cuts answer 503 in Strapi's shape (the database could not be
// reached), never a 500; every acknowledged write is there afterwards, and the service goes on.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { createServer, type ContentService } from '../../src/app.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

const ENGINE_CHILD = fileURLToPath(new URL('../helpers/engine-child.ts', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The engine alone (as `content-service engine`) on `port`, persisted in `dir`; resolves once it listens. */
function startEngineProcess(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', ENGINE_CHILD, '--port', String(port), '--host', '127.0.0.1', '--data', dir];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the engine did not start: ${out}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // the engine prints its URI on stdout once it listens
      if (out.includes(`mongodb://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}

describe('kill -9 of a separate embedded engine under a stream of writes', function () {
  this.timeout(60_000);
  let dir: string;
  let engine: ChildProcess | undefined;
  let service: ContentService | undefined;
  before(function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's process
    dir = mkdtempSync(join(tmpdir(), 'cs-engine-restart-'));
  });
  after(async () => {
    await service?.stop();
    engine?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('cut requests answer 503, never 500; every acknowledged write is there after the restart', async () => {
    const port = await freePort();
    engine = await startEngineProcess(port, dir);
    const appDir = await writeTempApp({
      api: {
        article: collectionTypeSchema('article', 'articles', {
          title: { type: 'string' },
          tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
        }),
        tag: collectionTypeSchema('tag', 'tags', {
          name: { type: 'string' },
          slug: { type: 'uid', targetField: 'name' },
          articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
        }),
      },
      config: { plugins: { i18n: { enabled: false } } },
    });
    service = await createServer({ appDir, databaseUri: `mongodb://127.0.0.1:${port}/restart` });
    const { accessKey } = await createApiToken(service.context, { name: 'restart', type: 'full-access' });
    const auth = { Authorization: `Bearer ${accessKey}` };
    const app = service.app;
    const acked = new Map<number, number>(); // tag → the article created with it
    const failures: request.Response[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const tag = await request(app)
          .post('/api/tags')
          .set(auth)
          .send({ data: { name: `tag ${n}.${i}`, slug: `tag-${n}-${i}` } });
        if (tag.status !== 200) {
          failures.push(tag);
          continue;
        }
        const article = await request(app)
          .post('/api/articles')
          .set(auth)
          .send({ data: { title: `article ${n}.${i}`, tags: [tag.body.data.id] } });
        if (article.status === 200) acked.set(tag.body.data.id as number, article.body.data.id as number);
        else failures.push(article);
      }
    };
    const clients = [0, 1, 2].map(client);
    while (acked.size < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = acked.size;
    engine.kill('SIGKILL');
    await new Promise((resolve) => engine?.once('exit', resolve));
    engine = await startEngineProcess(port, dir);
    // the clients go on against the restarted engine
    const restarted = acked.size;
    for (let waited = 0; acked.size < restarted + 10 && waited < 20_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await Promise.all(clients);
    expect(acked.size).to.be.at.least(before + 10);

    for (const failure of failures) {
      expect(failure.status, JSON.stringify(failure.body)).to.equal(503);
      expect(failure.body.error).to.include({ status: 503, name: 'ServiceUnavailableError' });
      expect(failure.body.error.message).to.match(/could not be reached/);
    }
    const stored = (await service.context.models
      .collection('api::article.article')
      .find({ _id: { $in: [...acked.values()] as never[] } })
      .toArray()) as unknown as Array<{ _id: number; tags: number[] }>;
    expect(stored).to.have.length(acked.size);
    const tagOf = new Map([...acked].map(([tag, article]) => [article, tag]));
    for (const article of stored) expect(article.tags).to.deep.equal([tagOf.get(article._id)]);
  });
});
