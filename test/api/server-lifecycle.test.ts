import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createServer } from '../../src/app.js';
import { SchemaError } from '../../src/content-types/index.js';
import { PUBLICATION_APP } from '../helpers/fixtures.js';

describe('server lifecycle', () => {
  it('starts on the database selectDatabase chooses (embedded engine in a worker thread unless MONGODB_URI), serves, and stops', async function () {
    this.timeout(30_000);
    const service = await createServer({
      appDir: PUBLICATION_APP,
      memory: true,
      config: { database: { uri: process.env.MONGODB_URI } },
    });
    try {
      expect(service.database).to.match(process.env.MONGODB_URI ? /^MongoDB at/ : /^embedded engine, in memory$/);
      const { url } = await service.start({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${url}/api/tags`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({
        data: [],
        meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } },
      });
      const health = await fetch(`${url}/_health`);
      expect(await health.json()).to.deep.equal({ status: 'ok' });
    } finally {
      await service.stop();
    }
  });

  it('refuses to start on an invalid schema, naming the file and attribute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-app-'));
    mkdirSync(join(dir, 'schemas/api'), { recursive: true });
    writeFileSync(
      join(dir, 'schemas/api/post.json'),
      JSON.stringify({
        kind: 'collectionType',
        collectionName: 'posts',
        info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
        attributes: { author: { type: 'relation', relation: 'manyToOne', target: 'api::nobody.nobody' } },
      }),
    );
    let error: unknown;
    try {
      await createServer({ appDir: dir, memory: true });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(SchemaError);
    expect((error as Error).message).to.match(
      /post\.json \(attribute "author"\): unknown relation target "api::nobody.nobody"/,
    );
  });
});
