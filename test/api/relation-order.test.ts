// The order of relations as Strapi 4.26 keeps it: a oneToMany `mappedBy` side (author.articles)
// keeps the order of connect/set and positions (Strapi's `article_order` column), and connect's
// `options.strict`. Expected orders and messages recorded from the reference Strapi 4.26.2.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

describe('REST writes: relation order and connect options', () => {
  let service: TestService;
  let client: WriteClient;
  let a: number[];
  let tags: number[];
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    a = [0];
    for (let i = 1; i <= 8; i++)
      a.push((await client.post('/api/articles', { data: { title: `a${i}` } })).body.data.id);
    tags = [0];
    for (let i = 1; i <= 9; i++)
      tags.push((await client.post('/api/tags', { data: { name: `t${i}`, slug: `order-t${i}` } })).body.data.id);
  });
  after(() => service.close());

  const articlesOf = async (author: number, query = 'populate[articles][fields][0]=title'): Promise<number[]> => {
    const res = await client.get(`/api/authors/${author}?${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data.attributes.articles.data as { id: number }[]).map((e) => a.indexOf(e.id));
  };
  const putArticles = async (author: number, articles: unknown): Promise<number[]> => {
    const res = await client.put(`/api/authors/${author}`, { data: { articles } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return articlesOf(author);
  };

  it('the inverse side of a oneToMany keeps connect order, positions, owning-side links and set', async () => {
    const created = await client.post('/api/authors', {
      data: { name: 'Ord', articles: { connect: [a[3], a[1], a[2]] } },
    });
    const author = created.body.data.id as number;
    expect(await articlesOf(author)).to.deep.equal([3, 1, 2]);
    expect(await putArticles(author, { connect: [{ id: a[4], position: { before: a[1] } }] })).to.deep.equal([
      3, 4, 1, 2,
    ]);
    expect(
      await putArticles(author, {
        connect: [
          { id: a[6], position: { start: true } },
          { id: a[7], position: { after: a[3] } },
        ],
      }),
    ).to.deep.equal([6, 3, 7, 4, 1, 2]);
    // linked from the owning side: the end of the list
    expect((await client.put(`/api/articles/${a[5]}`, { data: { author } })).status).to.equal(200);
    expect(await articlesOf(author)).to.deep.equal([6, 3, 7, 4, 1, 2, 5]);
    expect(await putArticles(author, { connect: [{ id: a[1], position: { end: true } }] })).to.deep.equal([
      6, 3, 7, 4, 2, 5, 1,
    ]);
    expect(await putArticles(author, { connect: [a[2]], disconnect: [a[3]] })).to.deep.equal([6, 7, 4, 5, 1, 2]);
    // the same order through a paginated populate and through GraphQL
    expect(await articlesOf(author, 'populate[articles][pagination][pageSize]=3')).to.deep.equal([6, 7, 4]);
    const gql = await client.post('/graphql', {
      query: `{ author(id: ${author}) { data { attributes { articles { data { id } } } } } }`,
    });
    expect(
      (gql.body.data.author.data.attributes.articles.data as { id: string }[]).map((e) => a.indexOf(Number(e.id))),
    ).to.deep.equal([6, 7, 4, 5, 1, 2]);
    expect(await putArticles(author, { set: [a[7], a[2], a[8]] })).to.deep.equal([7, 2, 8]);
    expect(await putArticles(author, [a[6], a[7]])).to.deep.equal([6, 7]);
    const stored = await client.stored('api::article.article', a[2]);
    expect(stored?.author).to.equal(null);
  });

  it('an entry moved to another author goes to the end of its list', async () => {
    const first = (await client.post('/api/authors', { data: { name: 'First', articles: [a[1], a[2]] } })).body.data.id;
    const second = (await client.post('/api/authors', { data: { name: 'Second', articles: [a[3], a[4]] } })).body.data
      .id;
    expect(await putArticles(second, { connect: [{ id: a[1], position: { start: true } }] })).to.deep.equal([1, 3, 4]);
    expect(await articlesOf(first)).to.deep.equal([2]);
    expect((await client.put(`/api/articles/${a[2]}`, { data: { author: second } })).status).to.equal(200);
    expect(await articlesOf(second)).to.deep.equal([1, 3, 4, 2]);
  });

  describe('connect options (strict by default)', () => {
    let article: number;
    before(async () => {
      article = (
        await client.post('/api/articles', { data: { title: 'tagged', tags: { connect: [tags[1], tags[2]] } } })
      ).body.data.id;
    });
    const tagsOf = async (): Promise<number[]> => {
      const res = await client.get(`/api/articles/${article}?populate[tags][fields][0]=name`);
      return (res.body.data.attributes.tags.data as { id: number }[]).map((e) => tags.indexOf(e.id));
    };
    const rejected = async (body: unknown, message: string) => {
      const before = await client.stored('api::article.article', article);
      const res = await client.put(`/api/articles/${article}`, { data: { tags: body } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        data: null,
        error: { status: 400, name: 'ValidationError', message, details: {} },
      });
      expect((await client.stored('api::article.article', article))?.tags).to.deep.equal(before?.tags);
    };

    it('the same id twice in one connect is refused (exact repeats are dropped)', async () => {
      await rejected(
        { connect: [tags[3], { id: tags[3] }] },
        `The relation with id ${tags[3]} is already connected. You cannot connect the same relation twice.`,
      );
      expect(
        (await client.put(`/api/articles/${article}`, { data: { tags: { connect: [tags[3], tags[3]] } } })).status,
      ).to.equal(200);
      expect(await tagsOf()).to.deep.equal([1, 2, 3]);
    });

    it('a position naming an entry that is not connected is refused, or appended when not strict', async () => {
      await rejected(
        { connect: [{ id: tags[4], position: { before: tags[9] } }] },
        `There was a problem connecting relation with id ${tags[4]} at position {"before":${tags[9]}}. The relation with id ${tags[9]} needs to be connected first.`,
      );
      const lenient = await client.put(`/api/articles/${article}`, {
        data: { tags: { connect: [{ id: tags[4], position: { before: tags[9] } }], options: { strict: false } } },
      });
      expect(lenient.status).to.equal(200);
      expect(await tagsOf()).to.deep.equal([1, 2, 3, 4]);
    });

    it('anchors connected in the same request are applied first; a cycle is refused', async () => {
      const res = await client.put(`/api/articles/${article}`, {
        data: {
          tags: {
            connect: [
              { id: tags[5], position: { after: tags[6] } },
              { id: tags[6], position: { before: tags[1] } },
            ],
          },
        },
      });
      expect(res.status).to.equal(200);
      expect(await tagsOf()).to.deep.equal([6, 5, 1, 2, 3, 4]);
      await rejected(
        {
          connect: [
            { id: tags[7], position: { after: tags[8] } },
            { id: tags[8], position: { before: tags[7] } },
          ],
        },
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
      );
    });

    it('a create checks positions strictly whatever the options', async () => {
      const before = await client.count('api::article.article');
      const res = await client.post('/api/articles', {
        data: {
          title: 'strict',
          tags: { connect: [{ id: tags[1], position: { before: tags[2] } }], options: { strict: false } },
        },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.message).to.equal(
        `There was a problem connecting relation with id ${tags[1]} at position {"before":${tags[2]}}. The relation with id ${tags[2]} needs to be connected first.`,
      );
      expect(await client.count('api::article.article')).to.equal(before);
      const ok = await client.post('/api/articles?populate[tags][fields][0]=name', {
        data: { title: 'ordered', tags: { connect: [{ id: tags[1], position: { after: tags[2] } }, tags[2]] } },
      });
      expect((ok.body.data.attributes.tags.data as { id: number }[]).map((e) => tags.indexOf(e.id))).to.deep.equal([
        2, 1,
      ]);
    });
  });
});
