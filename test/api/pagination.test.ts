import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
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
    'pagination[withCount]=maybe',
    'pagination=5',
    'pagination[foo]=1',
  ]) {
    it(`rejects ${query} with a 400`, async () => {
      const res = await get(`/api/articles?${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    });
  }

  it('rejects mixing page and offset pagination as Strapi does (400 PaginationError)', async () => {
    const res = await get('/api/articles?pagination[page]=1&pagination[limit]=2');
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'PaginationError',
        message: 'Cannot use both page & offset pagination in the same query',
        details: {},
      },
    });
  });

  it('honours start/limit inside populate (no meta) and pagination inside populate (own meta, Deviation 7)', async () => {
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
    expect(offset.body.data.attributes.articles.meta.pagination).to.include({ start: 1, limit: 1 });
  });
});
