import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { seedOperations, writeClient, type WriteClient } from '../helpers/write-client.js';

const HOMEPAGE = 'api::homepage.homepage';

describe('REST single types: PUT and DELETE /api/<singular>', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    for (const title of ['a1', 'a2', 'a3']) await client.post('/api/articles', { data: { title } });
  });
  after(() => service.close());

  it('DELETE before anything exists is a 404', async () => {
    const res = await client.del('/api/homepage');
    expect(res.status).to.equal(404);
    expect(res.body.error.name).to.equal('NotFoundError');
  });

  it('the first PUT creates entry 1 (the seed body), validated like a create', async () => {
    const bad = await client.put('/api/homepage', { data: { subtitle: 'no title' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.errors[0].message).to.equal('title must be defined.');
    expect(await client.count(HOMEPAGE)).to.equal(0);

    const seedBody = seedOperations.find((op) => op.single)?.body ?? {};
    const res = await client.put('/api/homepage', { data: { ...seedBody, featuredArticles: [1, 3] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.id).to.equal(1);
    expect(res.body.data.attributes).to.include({ title: 'Welcome to The Publication' });
    const stored = await client.stored(HOMEPAGE, 1);
    expect(stored?.featuredArticles).to.deep.equal([1, 3]);
    const sections = stored?.sections as { id: number; __component: string }[];
    expect(sections.map((s) => [s.__component, s.id])).to.deep.equal([
      ['blocks.rich-text', 1],
      ['blocks.quote', 1],
      ['blocks.cta', 1],
    ]);
    expect((stored?.seo as { id: number }).id).to.equal(1);
  });

  it('later PUTs update the same entry, only what they send', async () => {
    const res = await client.put('/api/homepage', { data: { subtitle: 'changed' } });
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(1);
    expect(res.body.data.attributes).to.include({ title: 'Welcome to The Publication', subtitle: 'changed' });
    expect(await client.count(HOMEPAGE)).to.equal(1);
    const bad = await client.put('/api/homepage', { data: { title: null } });
    expect(bad.status).to.equal(400);
    expect((await client.stored(HOMEPAGE, 1))?.title).to.equal('Welcome to The Publication');
  });

  it('GET applies filters: an entry that does not match them is a 404 (Strapi 4.26)', async () => {
    const matching = await client.get(
      '/api/homepage?filters[title][$eq]=Welcome%20to%20The%20Publication&fields[0]=title',
    );
    expect([matching.status, matching.body.data]).to.deep.equal([
      200,
      { id: 1, attributes: { title: 'Welcome to The Publication' } },
    ]);
    const missing = await client.get('/api/homepage?filters[title][$eq]=nope');
    expect([missing.status, missing.body.error.name]).to.deep.equal([404, 'NotFoundError']);
    const through = await client.get('/api/homepage?filters[featuredArticles][id][$eq]=999');
    expect(through.status).to.equal(404);
  });

  it('a PUT without data is a 400', async () => {
    const res = await client.put('/api/homepage', { title: 'x' });
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.equal('Missing "data" payload in the request body');
    // checked before the query, unlike a collection type's (Strapi 4.26)
    for (const body of [{ data: 'x' }, {}]) {
      const bad = await client.put('/api/homepage?fields[0]=name', body);
      expect([bad.status, bad.body.error?.message]).to.deep.equal([400, 'Missing "data" payload in the request body']);
    }
    const collection = await client.put('/api/notes/1?fields[0]=name', { data: 'x' });
    expect([collection.status, collection.body.error?.message]).to.deep.equal([400, 'Invalid parameter name']);
  });

  it('DELETE answers the entry and removes it; the next PUT creates id 2', async () => {
    const res = await client.del('/api/homepage');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ id: 1 });
    expect(res.body.data.attributes.title).to.equal('Welcome to The Publication');
    expect(await client.count(HOMEPAGE)).to.equal(0);
    const again = await client.put('/api/homepage', { data: { title: 'Again' } });
    expect(again.body.data.id).to.equal(2);
  });

  it('DELETE answers every attribute and nothing populated, whatever fields or populate say (Strapi 4.26)', async () => {
    const bad = await client.del('/api/homepage?fields[0]=nope');
    expect(bad.status).to.equal(400);
    expect(await client.count(HOMEPAGE), 'a bad query deletes nothing').to.equal(1);
    const res = await client.del('/api/homepage?populate=*&fields[0]=title');
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body.data.attributes)).to.deep.equal(['title', 'subtitle', 'createdAt', 'updatedAt']);
    expect(res.body.data.attributes).to.include({ title: 'Again', subtitle: null });
    expect(await client.count(HOMEPAGE)).to.equal(0);
  });
});
