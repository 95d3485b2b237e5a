import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { replaySeed, writeClient, type WriteClient } from '../helpers/write-client.js';

const ARTICLE = 'api::article.article';
const NOTE = 'api::note.note';

describe('REST create: POST /api/<plural>', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    // profiles, authors, categories, tags and articles 1–3 of the seed
    let articles = 0;
    await replaySeed(
      client,
      (op) =>
        op.contentType === 'articles' && op.updateId === undefined && op.localizationOf === undefined && ++articles > 3,
    );
  });
  after(() => service.close());

  it('creates a note and answers it with the request query (case 345)', async () => {
    const res = await client.post('/api/notes?fields[0]=title', { data: { title: 'tmp2', score: 1 } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ data: { id: res.body.data.id, attributes: { title: 'tmp2' } }, meta: {} });
    const stored = await client.stored(NOTE, res.body.data.id);
    expect(stored).to.include({ title: 'tmp2', score: 1, pinned: false });
    expect(stored?.createdAt).to.be.instanceOf(Date);
  });

  it('answers every attribute by default, defaults applied', async () => {
    const res = await client.post('/api/notes', { data: { title: 'full' } });
    expect(res.status).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'full', content: null, score: null, pinned: false });
    expect(res.body.data.attributes.createdAt).to.be.a('string');
  });

  it('gives ids 1..n per type in creation order', async () => {
    const a = await client.post('/api/notes', { data: { title: 'a' } });
    const b = await client.post('/api/notes', { data: { title: 'b' } });
    expect(b.body.data.id).to.equal(a.body.data.id + 1);
  });

  it('a body without an object `data` is a 400', async () => {
    for (const body of [{}, { data: 'x' }, { data: null }, { title: 'x' }]) {
      const res = await client.post('/api/notes', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.deep.equal({
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: 'Missing "data" payload in the request body',
          details: {},
        },
      });
    }
  });

  it('a bad query is a 400 before anything is written', async () => {
    const before = await client.count(NOTE);
    for (const query of ['fields[0]=nope', 'sort=nope', 'filters[$foo]=1']) {
      const res = await client.post(`/api/notes?${query}`, { data: { title: 'q' } });
      expect(res.status, query).to.equal(400);
    }
    const update = await client.put('/api/notes/1?fields[0]=nope', { data: { title: 'changed' } });
    expect(update.status).to.equal(400);
    expect(await client.count(NOTE)).to.equal(before);
    expect((await client.stored(NOTE, 1))?.title).to.equal('tmp2');
    // the answer is read as Strapi's findOne reads it: the sort's keys are checked, not its direction
    const sorted = await client.post('/api/notes?sort=title:sideways', { data: { title: 'sorted' } });
    expect(sorted.status).to.equal(200);
  });

  it('malformed JSON is a 400', async () => {
    const before = await client.count(NOTE);
    const res = await client.post('/api/notes').set('Content-Type', 'application/json').send('{"data": {');
    expect([res.status, res.body]).to.deep.equal([
      400,
      {
        data: null,
        error: { status: 400, name: 'SyntaxError', message: "Expected property name or '}' in JSON at position 10" },
      },
    ]);
    // koa-body's strict mode, as Strapi's REST body parser names it
    for (const body of ['true', '5', 'null', '"x"']) {
      const primitive = await client.post('/api/notes').set('Content-Type', 'application/json').send(body);
      expect([primitive.status, primitive.body], body).to.deep.equal([
        400,
        { data: null, error: { status: 400, name: 'Error', message: 'invalid JSON, only supports object and array' } },
      ]);
    }
    expect(await client.count(NOTE)).to.equal(before);
  });

  it('ignores unknown keys, id and timestamps', async () => {
    const before = await client.count(NOTE);
    const res = await client.post('/api/notes', {
      data: {
        title: 'strip',
        id: 999,
        createdAt: '2000-01-01T00:00:00.000Z',
        updatedAt: '2000-01-01T00:00:00.000Z',
        nope: 1,
      },
    });
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.not.equal(999);
    const stored = await client.stored(NOTE, res.body.data.id);
    expect(stored).to.not.have.property('nope');
    expect((stored?.createdAt as Date).getUTCFullYear()).to.be.greaterThan(2000);
    expect(await client.count(NOTE)).to.equal(before + 1);
  });

  it('stores private and password attributes but never answers them', async () => {
    const res = await client.post('/api/authors', { data: { name: 'Secret Keeper', secretCode: 'hush' } });
    expect(res.status).to.equal(200);
    expect(res.body.data.attributes).to.not.have.property('secretCode');
    const stored = await client.stored('api::author.author', res.body.data.id);
    expect(stored?.secretCode)
      .to.be.a('string')
      .and.match(/^\$2[aby]\$10\$/);
    const article = await client.post('/api/articles', { data: { title: 'private', internalNotes: 'psst' } });
    expect(article.body.data.attributes).to.not.have.property('internalNotes');
    expect((await client.stored(ARTICLE, article.body.data.id))?.internalNotes).to.equal('psst');
  });

  describe('seed bodies', () => {
    it('stores articles as the storage layout says', async () => {
      const stored = await client.stored(ARTICLE, 1);
      expect(stored).to.include({
        title: 'Getting Started with Strapi',
        kind: 'tutorial',
        publishDate: '2023-01-08',
        author: 1,
        category: 1,
        reviewer: null,
        featured: true,
        locale: 'en',
        localeGroup: 1,
      });
      expect(stored?.tags).to.deep.equal([2, 6]);
      expect(stored?.scheduledAt).to.be.instanceOf(Date);
      expect(String(stored?.views)).to.equal('3000123457');
    });

    it('reproduces Strapi component ids (article 3: seo 2, quote 2, rich-text 3, cta 1)', async () => {
      const stored = await client.stored(ARTICLE, 3);
      expect((stored?.seo as { id: number }).id).to.equal(2);
      const blocks = stored?.blocks as { id: number; __component: string }[];
      expect(blocks.map((b) => [b.__component, b.id])).to.deep.equal([
        ['blocks.quote', 2],
        ['blocks.rich-text', 3],
        ['blocks.cta', 1],
      ]);
      const links = stored?.links as { id: number }[];
      expect(links.map((l) => l.id)).to.deep.equal([3]);
    });

    it('creates every component of a new entry whatever id it names (Strapi 4.26), and leaves the named ones alone', async () => {
      const res = await client.post(
        '/api/articles?populate[seo][populate]=*&populate[links]=*&populate[blocks]=*&fields[0]=title',
        {
          data: {
            title: 'named component ids',
            seo: { id: 2, metaTitle: 'x', metaSocial: [{ id: 1, network: 'Twitter' }] },
            links: [
              { id: 3, label: 'l' },
              { id: 'abc', label: 'm' },
            ],
            blocks: [{ __component: 'blocks.quote', id: 2, text: 't' }],
          },
        },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { seo, links, blocks } = res.body.data.attributes;
      expect(seo.id).to.not.equal(2);
      expect(seo.metaSocial[0]).to.include({ network: 'Twitter' });
      expect(links.map((l: { id: number; label: string }) => [l.id === 3, l.label])).to.deep.equal([
        [false, 'l'],
        [false, 'm'],
      ]);
      expect(blocks[0]).to.include({ __component: 'blocks.quote', text: 't' });
      expect(blocks[0].id).to.not.equal(2);
      // article 3 keeps its own
      const stored = await client.stored(ARTICLE, 3);
      expect((stored?.seo as { id: number; metaTitle: string }).id).to.equal(2);
      expect((stored?.links as { id: number; label: string }[])[0].label).to.not.equal('l');
    });

    it('publishedAt: explicit value kept, omitted defaults to now, null is a draft', async () => {
      expect(((await client.stored(ARTICLE, 2))?.publishedAt as Date).toISOString()).to.equal(
        '2024-01-03T10:00:00.000Z',
      );
      const now = await client.post('/api/articles', { data: { title: 'now' } });
      expect(Date.now() - new Date(now.body.data.attributes.publishedAt).getTime()).to.be.lessThan(60_000);
      const draft = await client.post('/api/articles', { data: { publishedAt: null } });
      expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
      expect(draft.body.data.attributes.publishedAt).to.equal(null);
      const bad = await client.post('/api/articles', { data: { title: 'x', publishedAt: 'whenever' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.message).to.equal('Invalid format, expected a timestamp or an ISO date');
    });
  });

  describe('i18n', () => {
    it('creates in the default locale or data.locale, never ?locale= (Strapi 4.26); an unknown locale is a 400', async () => {
      const en = await client.post('/api/articles', { data: { title: 'default' } });
      expect(en.body.data.attributes.locale).to.equal('en');
      expect((await client.stored(ARTICLE, en.body.data.id))?.localeGroup).to.equal(en.body.data.id);
      const query = await client.post('/api/articles?locale=fr', { data: { title: 'query' } });
      expect(query.body.data.attributes.locale).to.equal('en');
      const unknownQuery = await client.post('/api/articles?locale=de', { data: { title: 'query' } });
      expect([unknownQuery.status, unknownQuery.body.data?.attributes.locale]).to.deep.equal([200, 'en']);
      const data = await client.post('/api/articles?locale=en', { data: { title: 'data', locale: 'fr' } });
      expect(data.body.data.attributes.locale).to.equal('fr');
      const before = await client.count(ARTICLE);
      const bad = await client.post('/api/articles', { data: { title: 'x', locale: 'de' } });
      expect(bad.status).to.equal(400);
      // Strapi 4.26's i18n answer
      expect([bad.body.error.name, bad.body.error.message]).to.deep.equal([
        'ApplicationError',
        "This locale doesn't exist",
      ]);
      // only a missing locale (or null) is the default one: '' names no locale
      const empty = await client.post('/api/articles', { data: { title: 'x', locale: '' } });
      expect([empty.status, empty.body.error?.message]).to.deep.equal([400, "This locale doesn't exist"]);
      const nullLocale = await client.post('/api/articles', { data: { title: 'null locale', locale: null } });
      expect([nullLocale.status, nullLocale.body.data?.attributes.locale]).to.deep.equal([200, 'en']);
      expect(await client.count(ARTICLE)).to.equal(before + 1);
    });

    it('data.localizations joins the group of the listed entries', async () => {
      const res = await client.post('/api/articles', { data: { title: 'Deux', locale: 'fr', localizations: [2] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await client.stored(ARTICLE, res.body.data.id))?.localeGroup).to.equal(2);
      const again = await client.post('/api/articles', { data: { title: 'Encore', locale: 'fr', localizations: [2] } });
      expect(again.status).to.equal(400);
    });

    it('ignores locale on a type that is not localized', async () => {
      const res = await client.post('/api/notes', { data: { title: 'n', locale: 'fr' } });
      expect(res.status).to.equal(200);
      expect(await client.stored(NOTE, res.body.data.id)).to.not.have.property('locale');
    });
  });

  describe('relations', () => {
    it('accepts ids, arrays of ids and connect/set objects', async () => {
      const res = await client.post('/api/articles', {
        data: {
          title: 'rel',
          author: { connect: [{ id: 2 }] },
          category: { set: [3] },
          tags: { connect: [1, { id: 4 }] },
          reviewer: '5',
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await client.stored(ARTICLE, res.body.data.id)).to.deep.include({
        author: 2,
        category: 3,
        tags: [1, 4],
        reviewer: 5,
      });
    });

    it('a relation to a missing id is a 400 and nothing is written', async () => {
      const before = await client.count(ARTICLE);
      for (const data of [
        { title: 'x', author: 999 },
        { title: 'x', tags: [1, 999] },
        { title: 'x', tags: { connect: [998] } },
      ]) {
        const res = await client.post('/api/articles', { data });
        expect(res.status, JSON.stringify(data)).to.equal(400);
        expect(res.body.error.name).to.equal('ValidationError');
      }
      const error = async (data: object) => {
        const res = await client.post('/api/articles', { data });
        return [res.status, res.body.error?.details.errors];
      };
      const missing = (n: number, uid: string) => ({
        path: [],
        message: `${n} relation(s) of type ${uid} associated with this entity do not exist`,
        name: 'ValidationError',
      });
      // Strapi 4.26 looks up an id value no entry can have and reports it missing, after the fields' issues
      expect(await error({ title: 'x', tags: 'lots' })).to.deep.equal([400, [missing(1, 'api::tag.tag')]]);
      expect(await error({ title: 'x', tags: ['a', 'b', 1.5, 999, 1, 'a'] })).to.deep.equal([
        400,
        [missing(4, 'api::tag.tag')],
      ]);
      expect(await error({ title: 'x', author: { connect: [{ id: 'x' }] } })).to.deep.equal([
        400,
        [missing(1, 'api::author.author')],
      ]);
      expect(await error({ tags: [999] })).to.deep.equal([
        400,
        [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }, missing(1, 'api::tag.tag')],
      ]);
      // a connect, disconnect or set that is no list
      expect(await error({ title: 'x', tags: { connect: 'abc' } })).to.deep.equal([
        400,
        [{ path: [], message: 'Invalid relations', name: 'ValidationError' }],
      ]);
      // a value of no id form stays refused (Strapi drops it and answers a 200)
      const odd = await client.post('/api/articles', { data: { title: 'x', tags: true } });
      expect([odd.status, odd.body.error.details.errors[0].path]).to.deep.equal([400, ['tags']]);
      // several ids for a to-one relation (Strapi links the first and drops the others)
      const several = await client.post('/api/articles', { data: { title: 'x', author: [1, 2] } });
      expect([several.status, several.body.error.message]).to.deep.equal([
        400,
        'author is a to-one relation: it takes one id',
      ]);
      expect(await client.count(ARTICLE)).to.equal(before);
    });

    it('writing an inverse side updates the owning entries', async () => {
      const res = await client.post('/api/authors', { data: { name: 'Inverse', articles: [1, 2] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.data.id;
      expect((await client.stored(ARTICLE, 1))?.author).to.equal(id);
      expect((await client.stored(ARTICLE, 2))?.author).to.equal(id);
    });

    it('connect positions order a to-many relation', async () => {
      const res = await client.post('/api/articles', {
        data: {
          title: 'pos',
          tags: { connect: [1, 2, { id: 3, position: { before: 1 } }, { id: 4, position: { start: true } }] },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await client.stored(ARTICLE, res.body.data.id))?.tags).to.deep.equal([4, 3, 1, 2]);
      const bad = await client.post('/api/articles', {
        data: { title: 'pos', tags: { connect: [{ id: 3, position: { after: 9 } }] } },
      });
      expect(bad.status).to.equal(400);
    });

    it('relation input to a type the caller cannot read is dropped (Strapi removeRestrictedRelations)', async () => {
      const { accessKey } = await createApiToken(service.context, {
        name: 'articles only',
        type: 'custom',
        actions: [
          'api::article.article.create',
          'api::article.article.find',
          'api::article.article.findOne',
          'api::tag.tag.find',
        ],
      });
      const res = await request(service.app)
        .post('/api/articles')
        .set('Authorization', `Bearer ${accessKey}`)
        .send({ data: { title: 'restricted', author: 1, tags: [1] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await client.stored(ARTICLE, res.body.data.id)).to.deep.include({ author: null, tags: [1] });
    });

    it('a oneToOne target belongs to one entry only', async () => {
      const a = await client.post('/api/authors', { data: { name: 'One', profile: 7 } });
      const b = await client.post('/api/authors', { data: { name: 'Two', profile: 7 } });
      expect((await client.stored('api::author.author', b.body.data.id))?.profile).to.equal(7);
      expect((await client.stored('api::author.author', a.body.data.id))?.profile).to.equal(null);
    });
  });
});
