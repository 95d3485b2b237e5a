import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `fields` over HTTP on the seeded publication app. */
describe('REST fields', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const expect400 = async (path: string, message?: string) => {
    const res = await get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.data).to.equal(null);
    expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    if (message) expect(res.body.error.message).to.equal(message);
  };

  it('returns every readable scalar by default, null when absent, never relations, components or private fields', async () => {
    const res = await get('/api/articles/3');
    expect(res.status).to.equal(200);
    const attributes = res.body.data.attributes;
    expect(Object.keys(attributes)).to.have.members([
      'title',
      'slug',
      'summary',
      'body',
      'kind',
      'publishDate',
      'scheduledAt',
      'readingTime',
      'views',
      'rating',
      'price',
      'featured',
      'metadata',
      'contactEmail',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]);
    expect(attributes).to.include({
      views: '3000370371',
      publishDate: '2023-03-22',
      scheduledAt: '2024-04-06T09:39:00.000Z',
      contactEmail: null,
      locale: 'en',
    });
    expect(res.body.data).to.not.have.nested.property('attributes.internalNotes');
  });

  it('formats temporal and number types as Strapi does', async () => {
    const res = await get(
      '/api/events/1?fields[0]=startTime&fields[1]=day&fields[2]=startsAt&fields[3]=budget&fields[4]=ticketPrice&fields[5]=details',
    );
    expect(res.body.data.attributes).to.deep.equal({
      startTime: '09:15:00.000',
      day: '2024-03-06',
      startsAt: '2024-03-06T09:15:00.000Z',
      budget: '1000000007',
      ticketPrice: 4.75,
      details: { room: 'R1', catering: true },
    });
  });

  it('accepts the indexed, plain string and * forms', async () => {
    const indexed = await get('/api/articles?fields[0]=title&fields[1]=slug&pagination[pageSize]=1');
    expect(indexed.body.data[0]).to.deep.equal({
      id: 1,
      attributes: { title: 'Getting Started with Strapi', slug: 'getting-started-with-strapi' },
    });
    const plain = await get('/api/articles?fields=title&pagination[pageSize]=1');
    expect(plain.body.data[0]).to.deep.equal({ id: 1, attributes: { title: 'Getting Started with Strapi' } });
    const star = await get('/api/articles?fields[0]=*&pagination[pageSize]=1');
    expect(star.body.data[0].attributes).to.have.property('locale', 'en');
    const id = await get('/api/tags?fields[0]=id&pagination[pageSize]=1');
    expect(id.body.data[0]).to.deep.equal({ id: 1, attributes: {} });
  });

  it('rejects private, password, non-scalar, unknown, empty, comma and object forms with a 400', async () => {
    await expect400('/api/articles?fields[0]=internalNotes', 'Invalid parameter internalNotes');
    await expect400('/api/authors?fields[0]=secretCode', 'Invalid parameter secretCode');
    await expect400('/api/articles?fields[0]=seo', 'Invalid parameter seo');
    await expect400('/api/articles?fields[0]=author', 'Invalid parameter author');
    await expect400('/api/articles?fields[0]=nope', 'Invalid parameter nope');
    await expect400('/api/articles?fields=');
    await expect400('/api/articles?fields=title,slug', 'Invalid parameter title,slug');
    await expect400('/api/articles?fields[title]=1');
  });

  it('trims each name; an empty one is Strapi’s `Invalid parameter ` (at any level)', async () => {
    const res = await get('/api/articles/1?fields[0]=%20title%20');
    expect(res.body.data.attributes).to.deep.equal({ title: 'Getting Started with Strapi' });
    await expect400('/api/articles?fields[0]=title&fields[1]=', 'Invalid parameter ');
    await expect400('/api/articles?fields[0]=%20', 'Invalid parameter ');
    await expect400('/api/articles/1?fields[0]=', 'Invalid parameter ');
    await expect400('/api/articles?populate[author][fields]=', 'Invalid parameter ');
    await expect400('/api/articles?populate[author][fields][0]=', 'Invalid parameter ');
  });

  it('applies fields inside populate, components included', async () => {
    const res = await get(
      '/api/articles/1?fields[0]=title&populate[author][fields][0]=name&populate[seo][fields][0]=metaTitle',
    );
    expect(res.body.data.attributes).to.deep.equal({
      title: 'Getting Started with Strapi',
      author: { data: { id: 1, attributes: { name: 'Alice Martin' } } },
      seo: { id: 1, metaTitle: 'Getting Started with Strapi | Pub' },
    });
    await expect400('/api/articles/1?populate[author][fields][0]=secretCode', 'Invalid parameter secretCode');
  });
});
