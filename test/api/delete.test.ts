import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

const ARTICLE = 'api::article.article';

describe('REST delete: DELETE /api/<plural>/:id', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
  });
  after(() => service.close());

  it('answers the deleted entry, then it is gone (case 345)', async () => {
    const note = await client.post('/api/notes', { data: { title: 'tmp', score: 2, pinned: true } });
    const id = note.body.data.id;
    const res = await client.del(`/api/notes/${id}`);
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(id);
    expect(res.body.data.attributes).to.include({ title: 'tmp', content: null, score: 2, pinned: true });
    expect(res.body.meta).to.deep.equal({});
    expect(await client.stored('api::note.note', id)).to.equal(null);
    expect((await client.get(`/api/notes/${id}`)).status).to.equal(404);
  });

  it('unknown and malformed ids are 404s (case 351)', async () => {
    for (const id of ['999999', 'abc', '-1']) {
      const res = await client.del(`/api/notes/${id}`);
      expect(res.status, id).to.equal(404);
      expect(res.body).to.deep.equal({
        data: null,
        error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
      });
    }
  });

  it('answers a draft too', async () => {
    const draft = await client.post('/api/articles', { data: { title: 'draft', publishedAt: null } });
    const res = await client.del(`/api/articles/${draft.body.data.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'draft', publishedAt: null });
  });

  it('removes the id from every relation pointing at it', async () => {
    const author = await client.post('/api/authors', { data: { name: 'Gone' } });
    const keep = await client.post('/api/authors', { data: { name: 'Kept' } });
    const tagA = await client.post('/api/tags', { data: { name: 'a', slug: 'a' } });
    const tagB = await client.post('/api/tags', { data: { name: 'b', slug: 'b', relatedTags: [tagA.body.data.id] } });
    const article = await client.post('/api/articles', {
      data: {
        title: 'rel',
        author: author.body.data.id,
        reviewer: author.body.data.id,
        tags: [tagA.body.data.id, tagB.body.data.id],
      },
    });
    const event = await client.post('/api/events', {
      data: { name: 'ev', speakers: [keep.body.data.id, author.body.data.id] },
    });
    const homepage = await client.put('/api/homepage', {
      data: { title: 'home', featuredArticles: [article.body.data.id] },
    });
    expect(homepage.status).to.equal(200);

    expect((await client.del(`/api/authors/${author.body.data.id}`)).status).to.equal(200);
    expect(await client.stored(ARTICLE, article.body.data.id)).to.deep.include({ author: null, reviewer: null });
    expect((await client.stored('api::event.event', event.body.data.id))?.speakers).to.deep.equal([keep.body.data.id]);

    expect((await client.del(`/api/tags/${tagA.body.data.id}`)).status).to.equal(200);
    expect((await client.stored(ARTICLE, article.body.data.id))?.tags).to.deep.equal([tagB.body.data.id]);
    expect((await client.stored('api::tag.tag', tagB.body.data.id))?.relatedTags).to.deep.equal([]);

    expect((await client.del(`/api/articles/${article.body.data.id}`)).status).to.equal(200);
    expect((await client.stored('api::homepage.homepage', homepage.body.data.id))?.featuredArticles).to.deep.equal([]);
  });

  it('deleting one localization leaves the others', async () => {
    const en = await client.post('/api/articles', { data: { title: 'en' } });
    const fr = await client.post(`/api/articles/${en.body.data.id}/localizations`, { locale: 'fr', title: 'fr' });
    expect((await client.del(`/api/articles/${en.body.data.id}`)).status).to.equal(200);
    expect(await client.stored(ARTICLE, fr.body.id)).to.include({ title: 'fr', locale: 'fr' });
  });
});

describe('REST delete: references inside components and dynamic zones', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        thing: collectionTypeSchema('thing', 'things', { name: { type: 'string' } }),
        box: collectionTypeSchema('box', 'boxes', {
          label: { type: 'string' },
          main: { type: 'component', component: 'parts.ref' },
          list: { type: 'component', component: 'parts.ref', repeatable: true },
          zone: { type: 'dynamiczone', components: ['parts.ref', 'parts.group'] },
        }),
      },
      components: {
        'parts.ref': {
          collectionName: 'components_parts_refs',
          info: { displayName: 'ref' },
          attributes: {
            one: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing' },
            many: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing' },
          },
        },
        'parts.group': {
          collectionName: 'components_parts_groups',
          info: { displayName: 'group' },
          attributes: { refs: { type: 'component', component: 'parts.ref', repeatable: true } },
        },
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
    for (const name of ['t1', 't2', 't3']) await client.post('/api/things', { data: { name } });
  });
  after(() => service.close());

  it('relations inside components are validated, stored as ids and cleaned up on delete', async () => {
    const missing = await client.post('/api/boxes', { data: { main: { one: 99 } } });
    expect(missing.status).to.equal(400);
    expect(await client.count('api::box.box')).to.equal(0);

    const res = await client.post('/api/boxes', {
      data: {
        label: 'b',
        main: { one: 1, many: [1, 2] },
        list: [{ one: 2, many: [2, 3] }, { one: 1 }],
        zone: [
          { __component: 'parts.ref', one: 1, many: [1] },
          { __component: 'parts.group', refs: [{ one: 1, many: [3, 1] }] },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.data.id;
    expect((await client.del('/api/things/1')).status).to.equal(200);
    const stored = await client.stored('api::box.box', id);
    expect(stored?.main).to.deep.include({ one: null, many: [2] });
    expect((stored?.list as Record<string, unknown>[]).map((c) => [c.one, c.many])).to.deep.equal([
      [2, [2, 3]],
      [null, undefined],
    ]);
    const zone = stored?.zone as Record<string, unknown>[];
    expect(zone[0]).to.deep.include({ one: null, many: [] });
    expect((zone[1]?.refs as Record<string, unknown>[])[0]).to.deep.include({ one: null, many: [3] });
  });
});
