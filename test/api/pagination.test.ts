import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { seedPublication } from '../helpers/seed.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `pagination` over HTTP: both styles, defaults, caps, meta shapes, pagination inside populate. */
describe('REST pagination', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = (body: { data: { id: number }[] }) => body.data.map((entry) => entry.id);

  it('defaults to page 1 of 25 with the total (34 published en articles)', async () => {
    const res = await get('/api/articles?fields[0]=title');
    expect(res.body.data).to.have.length(25);
    expect(res.body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 2, total: 34 } });
  });

  it('pages with page/pageSize', async () => {
    const res = await get('/api/articles?pagination[page]=2&pagination[pageSize]=10&fields[0]=title');
    expect(ids(res.body)).to.deep.equal([13, 14, 15, 16, 17, 18, 20, 21, 22, 23]);
    expect(res.body.meta.pagination).to.deep.equal({ page: 2, pageSize: 10, pageCount: 4, total: 34 });
  });

  it('adjusts out-of-range values as Strapi does', async () => {
    expect((await get('/api/articles?pagination[pageSize]=0&fields[0]=title')).body.meta.pagination).to.deep.equal({
      page: 1,
      pageSize: 1,
      pageCount: 34,
      total: 34,
    });
    expect((await get('/api/articles?pagination[pageSize]=1000&fields[0]=title')).body.meta.pagination).to.deep.equal({
      page: 1,
      pageSize: 100,
      pageCount: 1,
      total: 34,
    });
    expect(
      (await get('/api/articles?pagination[page]=0&pagination[pageSize]=2&fields[0]=title')).body.meta.pagination.page,
    ).to.equal(1);
    expect(
      (await get('/api/articles?pagination[page]=-1&pagination[pageSize]=2&fields[0]=title')).body.meta.pagination.page,
    ).to.equal(1);
    expect((await get('/api/articles?pagination[limit]=0&fields[0]=title')).body.meta.pagination).to.deep.equal({
      start: 0,
      limit: 1,
      total: 34,
    });
    const all = await get('/api/articles?pagination[limit]=-1&fields[0]=title');
    expect(all.body.data).to.have.length(34);
    expect(all.body.meta.pagination).to.deep.equal({ start: 0, limit: 100, total: 34 });
  });

  it('pages with start/limit', async () => {
    const res = await get('/api/articles?pagination[start]=30&pagination[limit]=10&fields[0]=title');
    expect(ids(res.body)).to.deep.equal([36, 37, 39, 40]);
    expect(res.body.meta.pagination).to.deep.equal({ start: 30, limit: 10, total: 34 });
  });

  it('leaves the total out with withCount=false', async () => {
    expect((await get('/api/articles?pagination[withCount]=false&fields[0]=title')).body.meta.pagination).to.deep.equal(
      { page: 1, pageSize: 25 },
    );
    expect(
      (await get('/api/articles?pagination[start]=2&pagination[limit]=3&pagination[withCount]=false')).body.meta
        .pagination,
    ).to.deep.equal({ start: 2, limit: 3 });
  });

  it('answers an empty page with pageCount 0', async () => {
    const res = await get('/api/categories?filters[id][$gt]=100&pagination[page]=3');
    expect(res.body).to.deep.equal({
      data: [],
      meta: { pagination: { page: 3, pageSize: 25, pageCount: 0, total: 0 } },
    });
  });

  for (const query of [
    'pagination[page]=abc',
    'pagination[pageSize]=1.5',
    'pagination[start]=abc&pagination[limit]=2',
  ]) {
    it(`rejects ${query} with a 400 (Strapi: 500)`, async () => {
      const res = await get(`/api/articles?${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    });
  }

  it("rejects a withCount Strapi does not read with Strapi's message", async () => {
    for (const value of ['maybe', '']) {
      const res = await get(`/api/articles?pagination[withCount]=${value}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.equal({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid withCount parameter. Expected "t","1","true","false","0","f"',
        details: {},
      });
    }
  });

  it('ignores a pagination that is not an object and keys Strapi does not read', async () => {
    const res = await get('/api/articles?pagination=5&fields[0]=title');
    expect(res.status).to.equal(200);
    expect(res.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 25, pageCount: 2, total: 34 });
    const foo = await get('/api/articles?pagination[foo]=1&pagination[pageSize]=2&fields[0]=title');
    expect(foo.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 2, pageCount: 17, total: 34 });
  });

  it('reads values as Strapi reads numbers: empty is 0 (then 1), hex, a one-item list; -1 page size is 1', async () => {
    const meta = async (query: string) => (await get(`/api/articles?fields[0]=title&${query}`)).body.meta.pagination;
    expect(await meta('pagination[pageSize]=')).to.deep.equal({ page: 1, pageSize: 1, pageCount: 34, total: 34 });
    expect(await meta('pagination[page]=&pagination[pageSize]=2')).to.include({ page: 1, pageSize: 2 });
    expect(await meta('pagination[pageSize]=0x2')).to.include({ pageSize: 2 });
    expect(await meta('pagination[page][0]=2&pagination[pageSize]=5')).to.include({ page: 2, pageSize: 5 });
    expect(await meta('pagination[pageSize]=-1')).to.include({ pageSize: 1 });
    expect(await meta('pagination[limit]=')).to.deep.equal({ start: 0, limit: 1, total: 34 });
    expect(await meta('pagination[start]=&pagination[limit]=2')).to.deep.equal({ start: 0, limit: 2, total: 34 });
    expect(await meta('pagination[limit]=-5')).to.deep.equal({ start: 0, limit: 1, total: 34 });
    // over maxLimit, a fractional size is capped before it is checked
    expect(await meta('pagination[pageSize]=100.5')).to.include({ pageSize: 100 });
  });

  it("answers a fractional page that has to be counted with Strapi's PaginationError", async () => {
    const res = await get('/api/articles?pagination[page]=1.5&pagination[pageSize]=2');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.equal({
      status: 400,
      name: 'PaginationError',
      message: "Invalid 'page' parameter. Expected an integer > 0, received: 1.5",
      details: {},
    });
  });

  it('rejects mixing page and offset pagination as Strapi does (400 ValidationError)', async () => {
    const res = await get('/api/articles?pagination[page]=1&pagination[limit]=2');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid pagination parameters. Expected either start/limit or page/pageSize',
        details: {},
      },
    });
  });

  it('refuses top-level page/pageSize, and top-level start/limit beside a counted page, as Strapi does', async () => {
    const refused = {
      status: 400,
      name: 'PaginationError',
      message: 'Invalid pagination attributes. You cannot use page and offset pagination in the same query',
      details: {},
    };
    for (const query of ['page=2', 'pageSize=1&pagination[limit]=2', 'start=5', 'limit=abc']) {
      const res = await get(`/api/articles?fields[0]=title&${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.deep.equal(refused);
    }
    // ignored: beside an offset window, or when nothing is counted
    const offset = await get('/api/articles?fields[0]=title&start=1&pagination[limit]=2');
    expect(offset.body.meta.pagination).to.deep.equal({ start: 0, limit: 2, total: 34 });
    const uncounted = await get(
      '/api/articles?fields[0]=title&start=1&pagination[withCount]=false&pagination[pageSize]=2',
    );
    expect(uncounted.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 2 });
  });

  it('limit=-1 without maxLimit reads every entry and answers limit -1', async () => {
    const unlimited = await createTestService({
      config: { api: { rest: { prefix: '/api', defaultLimit: 25, maxLimit: 0, withCount: true } } },
    });
    try {
      await seedPublication(unlimited.context);
      const res = await request(unlimited.app).get('/api/articles?pagination[limit]=-1&fields[0]=title');
      expect(res.body.data).to.have.length(34);
      expect(res.body.meta.pagination).to.deep.equal({ start: 0, limit: -1, total: 34 });
      const large = await request(unlimited.app).get('/api/articles?pagination[pageSize]=500&fields[0]=title');
      expect(large.body.meta.pagination).to.include({ pageSize: 500, pageCount: 1 });
    } finally {
      await unlimited.close();
    }
  });

  it("config/api's maxLimit -1 is no maximum: the size asked for is honoured, limit=-1 reads every entry", async () => {
    const appDir = await writeTempApp({
      config: { api: { rest: { defaultLimit: 10, maxLimit: -1 } } },
      api: {
        article: {
          kind: 'collectionType',
          collectionName: 'articles',
          info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
          options: { draftAndPublish: false },
          attributes: { title: { type: 'string' } },
        },
      },
    });
    const unlimited = await createTestService({ appDir });
    try {
      const token = (await createApiToken(unlimited.context, { name: 'all', type: 'full-access' })).accessKey;
      for (let i = 0; i < 12; i += 1)
        await request(unlimited.app)
          .post('/api/articles')
          .set('Authorization', `Bearer ${token}`)
          .send({ data: { title: `a${i}` } })
          .expect(200);
      const get = (query: string) =>
        request(unlimited.app).get(`/api/articles?fields[0]=title&${query}`).set('Authorization', `Bearer ${token}`);
      expect((await get('')).body.meta.pagination).to.deep.equal({ page: 1, pageSize: 10, pageCount: 2, total: 12 });
      expect((await get('pagination[pageSize]=5')).body.meta.pagination).to.include({ pageSize: 5, pageCount: 3 });
      const all = await get('pagination[limit]=-1');
      expect(all.body.data).to.have.length(12);
      expect(all.body.meta.pagination).to.deep.equal({ start: 0, limit: -1, total: 12 });
    } finally {
      await unlimited.close();
    }
  });

  it('checks page, pageSize, start and limit inside populate as Strapi does', async () => {
    const base = '/api/articles?fields[0]=title&pagination[pageSize]=2';
    const error = async (query: string) => (await get(`${base}&${query}`)).body.error;
    expect(await error('populate[tags][page]=0')).to.include({
      name: 'PaginationError',
      message: "Invalid 'page' parameter. Expected an integer > 0, received: 0",
    });
    expect(await error('populate[tags][pageSize]=0')).to.include({
      name: 'PaginationError',
      message: "Invalid 'pageSize' parameter. Expected an integer > 0, received: undefined",
    });
    expect(await error('populate[tags][page]=1&populate[tags][limit]=1')).to.include({ name: 'PaginationError' });
    expect(await error('populate[tags][start]=-1')).to.include({ status: 400, name: 'ValidationError' });
    // limit 0 is no limit, as in Strapi
    const all = await get(`${base}&populate[tags][limit]=0`);
    expect(all.body.data[0].attributes.tags.data.map((tag: { id: number }) => tag.id)).to.deep.equal([2, 6]);
  });

  it('honours start/limit inside populate (no meta) and pagination inside populate (own meta, beyond Strapi)', async () => {
    const limited = await get('/api/articles/1?populate[tags][limit]=1&fields[0]=title');
    expect(limited.body.data.attributes.tags).to.deep.equal({
      data: [{ id: 2, attributes: limited.body.data.attributes.tags.data[0].attributes }],
    });
    const paged = await get(
      '/api/categories/1?fields[0]=name&populate[articles][fields][0]=title&populate[articles][pagination][page]=2&populate[articles][pagination][pageSize]=2',
    );
    const articles = paged.body.data.attributes.articles;
    expect(ids(articles)).to.deep.equal([11, 16]);
    expect(articles.meta.pagination).to.include({ page: 2, pageSize: 2 });
    expect(articles.meta.pagination.total).to.be.a('number').greaterThan(3);
    const offset = await get(
      '/api/categories/1?fields[0]=name&populate[articles][fields][0]=title&populate[articles][pagination][start]=1&populate[articles][pagination][limit]=1',
    );
    expect(ids(offset.body.data.attributes.articles)).to.deep.equal([6]);
    // in pages whatever the style (conformance rule 7), an offset read as the page it starts
    const total = articles.meta.pagination.total;
    expect(offset.body.data.attributes.articles.meta.pagination).to.deep.equal({
      page: 2,
      pageSize: 1,
      pageCount: total,
      total,
    });
    const later = await get(
      '/api/categories/1?fields[0]=name&populate[articles][fields][0]=title&populate[articles][pagination][start]=2&populate[articles][pagination][limit]=2',
    );
    expect(later.body.data.attributes.articles.meta.pagination).to.deep.equal({
      page: 2,
      pageSize: 2,
      pageCount: Math.ceil(total / 2),
      total,
    });
  });
});
