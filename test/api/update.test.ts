import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

const ARTICLE = 'api::article.article';
type Stored = Record<string, unknown> | null;

describe('REST update: PUT /api/<plural>/:id', () => {
  let service: TestService;
  let client: WriteClient;
  let articleId: number;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    for (const name of ['A', 'B', 'C']) await client.post('/api/authors', { data: { name } });
    for (const name of ['t1', 't2', 't3', 't4']) await client.post('/api/tags', { data: { name, slug: name } });
    const res = await client.post('/api/articles', {
      data: {
        title: 'Original',
        kind: 'news',
        author: 1,
        tags: [1, 2],
        seo: { metaTitle: 'seo', metaSocial: [{ network: 'Twitter' }] },
        links: [{ label: 'l1' }, { label: 'l2' }],
        blocks: [
          { __component: 'blocks.quote', text: 'q' },
          { __component: 'blocks.cta', label: 'c' },
        ],
      },
    });
    articleId = res.body.data.id;
  });
  after(() => service.close());

  const stored = (): Promise<Stored> => client.stored(ARTICLE, articleId);

  it('updates only the attributes sent (case 345)', async () => {
    const note = await client.post('/api/notes', { data: { title: 'tmp2', score: 1 } });
    const res = await client.put(`/api/notes/${note.body.data.id}`, { data: { score: 2, pinned: true } });
    expect(res.status).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'tmp2', content: null, score: 2, pinned: true });
    const again = await client.get(`/api/notes/${note.body.data.id}`);
    expect(again.body.data.attributes).to.include({ score: 2, pinned: true });
  });

  it('updatedAt moves, createdAt stays', async () => {
    const before = await stored();
    await new Promise((r) => setTimeout(r, 5));
    await client.put(`/api/articles/${articleId}`, { data: { summary: 's' } });
    const after = await stored();
    expect((after?.createdAt as Date).getTime()).to.equal((before?.createdAt as Date).getTime());
    expect((after?.updatedAt as Date).getTime()).to.be.greaterThan((before?.updatedAt as Date).getTime());
  });

  it('404 for unknown or malformed ids', async () => {
    for (const id of ['999999', 'abc', '1.5', '0']) {
      const res = await client.put(`/api/notes/${id}`, { data: { title: 'x' } });
      expect(res.status, id).to.equal(404);
      expect(res.body.error).to.deep.equal({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
    }
  });

  it('a failing update changes nothing', async () => {
    const before = await stored();
    for (const data of [
      { title: null },
      { kind: 'bad', summary: 'changed' },
      { tags: [1, 999], summary: 'changed' },
      { seo: { id: 9999, metaTitle: 'x' } },
    ]) {
      const res = await client.put(`/api/articles/${articleId}`, { data });
      expect(res.status, JSON.stringify(data)).to.equal(400);
    }
    const missing = await client.put(`/api/articles/${articleId}`, {});
    expect(missing.status).to.equal(400);
    expect(await stored()).to.deep.equal(before);
  });

  it('components: an id keeps the component, objects without id get new ids, missing ones are removed', async () => {
    const before = await stored();
    const seo = before?.seo as { id: number; metaSocial: { id: number }[] };
    const links = before?.links as { id: number; label: string }[];
    const res = await client.put(`/api/articles/${articleId}`, {
      data: {
        seo: { id: seo.id, metaTitle: 'seo 2' },
        links: [{ id: links[1]?.id, label: 'l2 bis' }, { label: 'l3' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const after = await stored();
    const seoAfter = after?.seo as { id: number; metaTitle: string; metaSocial: { id: number }[] };
    expect(seoAfter.id).to.equal(seo.id);
    expect(seoAfter.metaTitle).to.equal('seo 2');
    expect(seoAfter.metaSocial.map((m) => m.id)).to.deep.equal(seo.metaSocial.map((m) => m.id));
    const linksAfter = after?.links as { id: number; label: string }[];
    expect(linksAfter.map((l) => l.label)).to.deep.equal(['l2 bis', 'l3']);
    expect(linksAfter[0]?.id).to.equal(links[1]?.id);
    expect(linksAfter[1]?.id).to.be.greaterThan(Math.max(...links.map((l) => l.id)));
  });

  it('a component without id replaces the old one with a new id; null removes it', async () => {
    const before = (await stored())?.seo as { id: number };
    await client.put(`/api/articles/${articleId}`, { data: { seo: { metaTitle: 'fresh' } } });
    const after = (await stored())?.seo as { id: number; noIndex: boolean };
    expect(after.id).to.not.equal(before.id);
    expect(after.noIndex).to.equal(false);
    await client.put(`/api/articles/${articleId}`, { data: { seo: null } });
    expect((await stored())?.seo).to.equal(null);
  });

  it('dynamic zone items keep their id per component, new ones are created', async () => {
    const blocks = (await stored())?.blocks as { id: number; __component: string }[];
    const quote = blocks.find((b) => b.__component === 'blocks.quote');
    const res = await client.put(`/api/articles/${articleId}`, {
      data: {
        blocks: [
          { __component: 'blocks.rich-text', body: 'new' },
          { __component: 'blocks.quote', id: quote?.id, text: 'q2' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const after = (await stored())?.blocks as { id: number; __component: string; text?: string }[];
    expect(after.map((b) => b.__component)).to.deep.equal(['blocks.rich-text', 'blocks.quote']);
    expect(after[1]).to.include({ id: quote?.id, text: 'q2' });
    expect(after[0]?.id).to.be.a('number').and.greaterThan(0);
  });

  it('relations: connect, disconnect, set, ids and null', async () => {
    await client.put(`/api/articles/${articleId}`, { data: { tags: { connect: [3, { id: 4 }], disconnect: [1] } } });
    expect((await stored())?.tags).to.deep.equal([2, 3, 4]);
    await client.put(`/api/articles/${articleId}`, { data: { tags: { set: [4, 1] } } });
    expect((await stored())?.tags).to.deep.equal([4, 1]);
    await client.put(`/api/articles/${articleId}`, { data: { tags: [2], author: { connect: [3] } } });
    expect(await stored()).to.deep.include({ tags: [2], author: 3 });
    await client.put(`/api/articles/${articleId}`, { data: { author: null, tags: [] } });
    expect(await stored()).to.deep.include({ tags: [], author: null });
    const bad = await client.put(`/api/articles/${articleId}`, { data: { author: { connect: [999] } } });
    expect(bad.status).to.equal(400);
  });

  it('an inverse side replaces the owning links (author.articles)', async () => {
    const other = await client.post('/api/articles', { data: { title: 'other', author: 2 } });
    const third = await client.post('/api/articles', { data: { title: 'third', author: 2 } });
    const res = await client.put('/api/authors/2', { data: { articles: [articleId, other.body.data.id] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await client.stored(ARTICLE, articleId))?.author).to.equal(2);
    expect((await client.stored(ARTICLE, other.body.data.id))?.author).to.equal(2);
    expect((await client.stored(ARTICLE, third.body.data.id))?.author).to.equal(null);
    await client.put('/api/authors/2', { data: { articles: { disconnect: [articleId] } } });
    expect((await client.stored(ARTICLE, articleId))?.author).to.equal(null);
    expect((await client.stored(ARTICLE, other.body.data.id))?.author).to.equal(2);
  });

  it('publishedAt can be set and unset', async () => {
    const draft = await client.put(`/api/articles/${articleId}`, { data: { publishedAt: null } });
    expect(draft.body.data.attributes.publishedAt).to.equal(null);
    const published = await client.put(`/api/articles/${articleId}`, {
      data: { publishedAt: '2024-06-01T12:00:00.000Z' },
    });
    expect(published.body.data.attributes.publishedAt).to.equal('2024-06-01T12:00:00.000Z');
    await client.put(`/api/articles/${articleId}`, { data: { summary: 'still published' } });
    expect(((await stored())?.publishedAt as Date).toISOString()).to.equal('2024-06-01T12:00:00.000Z');
  });

  it('non-localized attributes propagate to the other localizations', async () => {
    const fr = await client.post(`/api/articles/${articleId}/localizations`, { locale: 'fr', title: 'Français' });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    await client.put(`/api/articles/${articleId}`, { data: { kind: 'review', rating: 4.5, title: 'English only' } });
    const frStored = await client.stored(ARTICLE, fr.body.id);
    expect(frStored).to.include({ kind: 'review', rating: 4.5, title: 'Français' });
  });

  it('unique check ignores the entry itself', async () => {
    const cat = await client.post('/api/categories', { data: { name: 'Self' } });
    const res = await client.put(`/api/categories/${cat.body.data.id}`, { data: { name: 'Self' } });
    expect(res.status).to.equal(200);
    await client.post('/api/categories', { data: { name: 'Other' } });
    const clash = await client.put(`/api/categories/${cat.body.data.id}`, { data: { name: 'Other' } });
    expect(clash.status).to.equal(400);
    expect(clash.body.error.details.errors[0]).to.deep.equal({
      path: ['name'],
      message: 'This attribute must be unique',
      name: 'ValidationError',
    });
  });
});
