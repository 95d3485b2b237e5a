import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `publicationState` over HTTP: live by default, preview on demand, also inside populated relations
 * (where Strapi answers drafts: docs/strapi-deviations.md). */
describe('REST publicationState', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = (envelope: { data: { id: number }[] }) => envelope.data.map((entry) => entry.id);

  it('lists published entries only by default, drafts too with preview', async () => {
    const live = await get('/api/events?fields[0]=name');
    expect(ids(live.body)).to.deep.equal([1, 2, 3, 5, 6, 7, 9, 10]);
    const preview = await get('/api/events?publicationState=preview&fields[0]=name&fields[1]=publishedAt');
    expect(ids(preview.body)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(preview.body.data[3].attributes.publishedAt).to.equal(null);
  });

  it('selects drafts only with preview and publishedAt $null', async () => {
    const res = await get('/api/articles?publicationState=preview&filters[publishedAt][$null]=true&fields[0]=title');
    expect(ids(res.body)).to.deep.equal([5, 12, 19, 26, 33, 38]);
  });

  it('finds a draft by id only with preview', async () => {
    expect((await get('/api/articles/5')).status).to.equal(404);
    const preview = await get('/api/articles/5?publicationState=preview&fields[0]=publishedAt');
    expect(preview.body.data).to.deep.equal({ id: 5, attributes: { publishedAt: null } });
  });

  it('by id, any value but preview reads as live (Strapi 4.26 findOne never reads it): no 400', async () => {
    for (const value of ['draft', '', 'LIVE', 'x[a]=b']) {
      const query = value.includes('[') ? 'publicationState[a]=b' : `publicationState=${value}`;
      const published = await get(`/api/articles/1?${query}&fields[0]=title`);
      expect([published.status, published.body.data?.id], query).to.deep.equal([200, 1]);
      expect((await get(`/api/articles/5?${query}`)).status, query).to.equal(404);
    }
  });

  it('leaves drafts out of populated relations unless the request or that level asks for preview', async () => {
    const live = await get('/api/authors/5?populate[articles][fields][0]=title&fields[0]=name');
    expect(ids(live.body.data.attributes.articles)).to.deep.equal([40]);
    const preview = await get(
      '/api/authors/5?publicationState=preview&populate[articles][fields][0]=title&fields[0]=name',
    );
    expect(ids(preview.body.data.attributes.articles)).to.deep.equal([5, 12, 19, 26, 40, 44]);
    const level = await get(
      '/api/authors/5?populate[articles][publicationState]=preview&populate[articles][fields][0]=title&fields[0]=name',
    );
    expect(ids(level.body.data.attributes.articles)).to.deep.equal([5, 12, 19, 26, 40, 44]);
  });

  it('is ignored on types without Draft & Publish, and rejects unknown values with a 400', async () => {
    expect((await get('/api/tags?publicationState=preview')).body.data).to.have.length(12);
    const bad = await get('/api/articles?publicationState=draft');
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ status: 400, name: 'ValidationError' });
  });
});
