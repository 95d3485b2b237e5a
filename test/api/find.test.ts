import { expect } from 'chai';
import request from 'supertest';
import { seededCommandCountingService } from '../helpers/seed.js';
import type { TestService } from '../helpers/server.js';

/** find / findOne / single type find over HTTP, the response envelopes, and one aggregation per request. */
describe('REST find, findOne, single type', () => {
  let service: TestService;
  let commands: string[] = [];
  before(async () => {
    ({ service, commands } = await seededCommandCountingService());
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);

  it('answers find with { data: [{ id, attributes }], meta: { pagination } }', async () => {
    const res = await get('/api/tags?pagination[pageSize]=2');
    expect(res.status).to.equal(200);
    expect(res.body.data[0]).to.have.keys('id', 'attributes');
    expect(res.body.data[0].attributes).to.have.keys('name', 'slug', 'weight', 'createdAt', 'updatedAt');
    expect(res.body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 2, pageCount: 6, total: 12 } });
    expect(JSON.stringify(res.body)).to.not.match(/_id|localeGroup|__v/);
  });

  it('answers findOne with { data, meta: {} } and 404 for missing, malformed and draft ids', async () => {
    const res = await get('/api/authors/1');
    expect(res.body).to.deep.equal({ data: { id: 1, attributes: res.body.data.attributes }, meta: {} });
    expect(res.body.data.attributes).to.not.have.property('secretCode');
    for (const id of ['999', 'abc', '1.5', '0', '-1', '0x1', '1e100']) {
      const missing = await get(`/api/articles/${id}`);
      expect(missing.status, id).to.equal(404);
      expect(missing.body).to.deep.equal({
        data: null,
        error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
      });
    }
    expect((await get('/api/articles/5')).status).to.equal(404);
  });

  it("checks findOne's query before the id, whatever the id (Strapi 4.26: a bad query is its 400 even for /abc)", async () => {
    const invalid = {
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid parameter nope', details: {} },
    };
    for (const path of [
      '/api/notes/abc?fields[0]=nope',
      '/api/notes/abc?sort=nope',
      '/api/notes/abc?filters[nope]=1',
      '/api/notes/999999?fields[0]=nope',
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(400);
      expect(res.body, path).to.deep.equal(invalid);
    }
    expect((await get('/api/notes/abc?fields[0]=title')).status).to.equal(404);
    expect((await get('/api/notes/999999?populate=nope')).status).to.equal(404);
  });

  it('reads an id as Strapi on SQLite compares it: any number literal of a whole number names it', async () => {
    for (const [path, id] of [
      ['01', 1],
      ['+1', 1],
      ['1.0', 1],
      ['10e-1', 1],
      ['%201%20', 1],
      ['1e1', 10],
    ] as const) {
      const res = await get(`/api/articles/${path}?fields[0]=title`);
      expect([res.status, res.body.data?.id], path).to.deep.equal([200, id]);
    }
  });

  it('reads a key without a value as Strapi 4.26 does (qs strict null: not given)', async () => {
    const titleOnly = await get('/api/articles?fields[0]=title&filters[id]=2');
    const idOnly = { id: 2, attributes: {} };
    for (const query of ['fields', 'fields&populate', 'fields&publicationState&sort&_q']) {
      const res = await get(`/api/articles?${query}&filters[id]=2`);
      expect([res.status, Object.keys(res.body.data?.[0]?.attributes ?? {})], query).to.deep.equal([
        200,
        Object.keys((await get('/api/articles?filters[id]=2')).body.data[0].attributes),
      ]);
    }
    expect((await get('/api/articles?fields[0]&filters[id]=2')).body.data).to.deep.equal([idOnly]);
    expect((await get('/api/articles?fields[0]&fields[1]=title&filters[id]=2')).body.data).to.deep.equal(
      titleOnly.body.data,
    );
    const populated = await get('/api/articles/2?fields[0]=title&populate[author][fields]&populate[author][populate]');
    expect(populated.status).to.equal(200);
    expect(populated.body.data.attributes.author.data.attributes).to.include({ name: 'bob dupont' });
    // `locale` left out is a locale null, which no entry has (Strapi 4.26 answers the same)
    expect((await get('/api/articles?locale&filters[id]=2')).body.data).to.deep.equal([]);
    // in a filter a value left out is null: `$eq` null is IS NULL, as in Strapi
    const noSummary = await get('/api/articles?filters[summary][$eq]&fields[0]=id&pagination[pageSize]=100');
    const nullSummary = await get('/api/articles?filters[summary][$null]=true&fields[0]=id&pagination[pageSize]=100');
    expect(noSummary.body.data).to.deep.equal(nullSummary.body.data);
  });

  it('ignores filters and sort on findOne but still rejects bad ones', async () => {
    expect((await get('/api/articles/1?filters[title][$eq]=x&sort=title&fields[0]=title')).body.data).to.deep.equal({
      id: 1,
      attributes: { title: 'Getting Started with Strapi' },
    });
    expect((await get('/api/articles/1?filters[nope][$eq]=1')).status).to.equal(400);
    // Strapi 4.26 validates the sort's keys there and never reads its directions
    for (const sort of ['title:sideways', 'sort[title]=up', ':desc', 'title:desc,:x'].map((s) =>
      s.startsWith('sort[') ? s : `sort=${s}`,
    )) {
      const res = await get(`/api/articles/1?${sort}&fields[0]=title`);
      expect([res.status, res.body.data?.id], sort).to.deep.equal([200, 1]);
    }
    for (const [sort, message] of [
      ['sort=nope:desc', 'Invalid parameter nope'],
      ['sort=tags:desc', 'Invalid parameter desc'],
      ['sort=seo:asc', 'Invalid parameter asc'],
      ['sort=internalNotes', 'Invalid parameter internalNotes'],
    ]) {
      const res = await get(`/api/articles/1?${sort}`);
      expect([res.status, res.body.error?.message], sort).to.deep.equal([400, message]);
    }
  });

  it('answers the single type', async () => {
    const res = await get('/api/homepage');
    expect(res.body).to.deep.equal({
      data: {
        id: 1,
        attributes: {
          title: 'Welcome to The Publication',
          subtitle: 'News, opinions & reviews — 100% independent.',
          createdAt: res.body.data.attributes.createdAt,
          updatedAt: res.body.data.attributes.updatedAt,
        },
      },
      meta: {},
    });
  });

  it('runs ONE aggregation (+ one count) for a page of 25 with 3 populated relations, one nested', async () => {
    const path =
      '/api/articles?populate[author][populate][profile]=*&populate[tags]=*&populate[category]=*&fields[0]=title';
    commands.length = 0;
    const res = await get(path);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.have.length(25);
    expect(res.body.data[0].attributes.author.data.attributes.profile.data.id).to.equal(1);
    expect(commands).to.deep.equal(['aggregate', 'aggregate']);
    commands.length = 0;
    await get(`${path}&pagination[withCount]=false`);
    expect(commands).to.deep.equal(['aggregate']);
    commands.length = 0;
    await get('/api/articles/1?populate=*');
    expect(commands).to.deep.equal(['aggregate']);
  });

  it('stays one aggregation with _q, json text filters, counts, component filters and dz fragments', async () => {
    commands.length = 0;
    const res = await get(
      '/api/articles?_q=a&filters[metadata][$contains]=source&populate[tags][count]=true&populate[links][filters][external]=true&populate[blocks][on][blocks.quote]=true&pagination[withCount]=false',
    );
    expect(res.status).to.equal(200);
    expect(commands).to.deep.equal(['aggregate']);
  });
});
