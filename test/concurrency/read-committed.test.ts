// On the embedded engine, requests never read another request's uncommitted writes (the engine's
// transactions are read committed, src/engine/README.md "Transactions"). An app's
// strapi.db.transaction(cb) is held open mid-way while other requests run: GET answers (list,
// total, one entry, a populated inverse side) show the committed state, and a one-to-one link that
// the open transaction removed is still released by a concurrent claim of the same target, so when
// the transaction then rolls back the target keeps exactly one owner.
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { runningStrapi, type StrapiApp } from '../../src/lifecycle/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const NOTE = 'api::note.note';
const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';

const schema = (singular: string, plural: string, attributes: object) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
  });

/** A Strapi project with code (so `strapi` exists): notes, and articles linked to authors both ways and one to one. */
const PROJECT: Record<string, string> = {
  'src/api/note/content-types/note/schema.json': schema('note', 'notes', { title: { type: 'string' } }),
  'src/api/article/content-types/article/schema.json': schema('article', 'articles', {
    title: { type: 'string' },
    author: { type: 'relation', relation: 'manyToOne', target: AUTHOR, inversedBy: 'articles' },
    reviewer: { type: 'relation', relation: 'oneToOne', target: AUTHOR, inversedBy: 'reviewed' },
  }),
  'src/api/author/content-types/author/schema.json': schema('author', 'authors', {
    name: { type: 'string' },
    articles: { type: 'relation', relation: 'oneToMany', target: ARTICLE, mappedBy: 'author' },
    reviewed: { type: 'relation', relation: 'oneToOne', target: ARTICLE, mappedBy: 'reviewer' },
  }),
  'src/index.js': 'module.exports = { bootstrap() {} };\n',
};

describe('reads during an open transaction (embedded engine: read committed)', () => {
  let service: TestService;
  let strapi: StrapiApp;
  let auth: Record<string, string>;

  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // a replica set gives snapshot reads; a standalone has no transactions
    const appDir = await mkdtemp(join(tmpdir(), 'cs-read-committed-'));
    await writeFiles(appDir, PROJECT);
    service = await createTestService({ appDir });
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
    expect(service.context.models.transactions).to.equal(true);
    auth = {
      Authorization: `Bearer ${(await createApiToken(service.context, { name: 'rc', type: 'full-access' })).accessKey}`,
    };
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path).set(auth);
  const put = (path: string, data: object) => request(service.app).put(path).set(auth).send({ data });

  /**
   * Runs `writes` in an app transaction and keeps it open until `during` (run outside it) is done;
   * then the transaction commits, or rolls back when `fail`.
   */
  async function heldOpen(writes: () => Promise<void>, during: () => Promise<void>, fail: boolean): Promise<void> {
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const transaction = strapi.db
      .transaction(async () => {
        await writes();
        wrote();
        await released;
        if (fail) throw new Error('rolled back');
      })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    await Promise.race([written, transaction]);
    try {
      await during();
    } finally {
      release();
    }
    const outcome = await transaction;
    expect(outcome?.message).to.equal(fail ? 'rolled back' : undefined);
  }

  const titles = async () => {
    const res = await get('/api/notes?sort=id&filters[title][$startsWith]=rc-');
    expect(res.status).to.equal(200);
    return {
      titles: (res.body.data as { attributes: { title: string } }[]).map((e) => e.attributes.title),
      total: res.body.meta.pagination.total as number,
    };
  };

  it('GET answers show neither a created entry nor an update until the commit, and nothing of them after a rollback', async () => {
    const kept = (await strapi.entityService.create(NOTE, { data: { title: 'rc-kept' } })) as { id: number };
    const before = { titles: ['rc-kept'], total: 1 };
    const writes = async () => {
      await strapi.entityService.create(NOTE, { data: { title: 'rc-new' } });
      await strapi.entityService.update(NOTE, kept.id, { data: { title: 'rc-changed' } });
    };
    const during = async () => {
      expect(await titles()).to.deep.equal(before);
      const one = await get(`/api/notes/${kept.id}`);
      expect(one.body.data.attributes.title).to.equal('rc-kept');
    };
    await heldOpen(writes, during, true);
    expect(await titles()).to.deep.equal(before);
    await heldOpen(writes, during, false);
    expect(await titles()).to.deep.equal({ titles: ['rc-changed', 'rc-new'], total: 2 });
  });

  it('a populated inverse side shows a link only once its transaction commits', async () => {
    const author = (await strapi.entityService.create(AUTHOR, { data: { name: 'RC author' } })) as { id: number };
    const article = (await strapi.entityService.create(ARTICLE, {
      data: { title: 'RC linked' },
    })) as { id: number };
    const linked = async () => {
      const res = await get(`/api/authors/${author.id}?populate=articles`);
      expect(res.status).to.equal(200);
      return (res.body.data.attributes.articles.data as { id: number }[]).map((a) => a.id);
    };
    const link = async () => {
      await strapi.entityService.update(ARTICLE, article.id, { data: { author: author.id } });
    };
    await heldOpen(
      link,
      async () => {
        expect(await linked()).to.deep.equal([]);
      },
      true,
    );
    expect(await linked()).to.deep.equal([]);
    await heldOpen(
      link,
      async () => {
        expect(await linked()).to.deep.equal([]);
      },
      false,
    );
    expect(await linked()).to.deep.equal([article.id]);
  });

  it('a one-to-one target claimed while an open transaction unlinks its owner keeps one owner when that transaction rolls back', async () => {
    const reviewer = (await strapi.entityService.create(AUTHOR, { data: { name: 'RC reviewer' } })) as { id: number };
    const create = async (title: string, data: object = {}) =>
      ((await strapi.entityService.create(ARTICLE, { data: { title, ...data } })) as { id: number }).id;
    const first = await create('rc-first', { reviewer: reviewer.id });
    const second = await create('rc-second');
    let claim: Promise<request.Response> | undefined;
    await heldOpen(
      async () => {
        await strapi.entityService.update(ARTICLE, first, { data: { reviewer: null } });
      },
      async () => {
        // the claim's release of older owners reads the committed link of `first` and waits for its lock
        claim = put(`/api/articles/${second}`, { reviewer: reviewer.id }).then((res) => res);
        await new Promise((resolve) => setTimeout(resolve, 100));
      },
      true,
    );
    expect((await claim)?.status).to.equal(200);
    const owners = await service.context.connection
      .getClient()
      .db(service.context.connection.db?.databaseName)
      .collection('articles')
      .find({ reviewer: reviewer.id })
      .toArray();
    expect(owners.map((a) => a._id)).to.deep.equal([second]);
  });

  describe("what settles a write made in an app's transaction runs again after its commit", () => {
    const stored = (collection: string, filter: object) =>
      service.context.connection
        .getClient()
        .db(service.context.connection.db?.databaseName)
        .collection(collection)
        .find(filter)
        .toArray();

    it('a one-to-one target linked in it and by a concurrent request keeps one owner (the newer)', async () => {
      const reviewer = (await strapi.entityService.create(AUTHOR, { data: { name: 'RC twice' } })) as { id: number };
      const [inside, outside] = await Promise.all(
        ['rc-inside', 'rc-outside'].map(
          async (title) => ((await strapi.entityService.create(ARTICLE, { data: { title } })) as { id: number }).id,
        ),
      );
      await heldOpen(
        async () => {
          await strapi.entityService.update(ARTICLE, inside, { data: { reviewer: reviewer.id } });
        },
        async () => {
          // its release cannot see the uncommitted link of `inside`, nor `inside`'s settling its commit
          const res = await put(`/api/articles/${outside}`, { reviewer: reviewer.id });
          expect(res.status).to.equal(200);
        },
        false,
      );
      expect((await stored('articles', { reviewer: reviewer.id })).map((a) => a._id)).to.deep.equal([outside]);
    });

    it('a link a concurrent request writes to an entry deleted in it is swept', async () => {
      const author = (await strapi.entityService.create(AUTHOR, { data: { name: 'RC deleted' } })) as { id: number };
      const article = (await strapi.entityService.create(ARTICLE, { data: { title: 'rc-orphan' } })) as { id: number };
      await heldOpen(
        async () => {
          await strapi.entityService.delete(AUTHOR, author.id);
        },
        async () => {
          // its check still sees the author (the delete is not committed)
          const res = await put(`/api/articles/${article.id}`, { author: author.id });
          expect(res.status).to.equal(200);
        },
        false,
      );
      expect(await stored('articles', { author: author.id })).to.deep.equal([]);
    });
  });
});
