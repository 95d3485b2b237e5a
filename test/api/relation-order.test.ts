// The order of relations as Strapi 4.26 keeps it: a oneToMany `mappedBy` side (author.articles)
// and a manyToMany `mappedBy` side (tag.articles) keep the order of connect/set and positions
// (Strapi's `article_order` columns), and connect's `options.strict`. Expected orders and messages
// recorded from the reference Strapi 4.26.2.
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

  describe('the inverse side of a manyToMany (tag.articles)', () => {
    let t: number[];
    let x: number[];
    before(async () => {
      t = [0];
      for (let i = 1; i <= 4; i++)
        t.push((await client.post('/api/tags', { data: { name: `mm${i}`, slug: `mm-${i}` } })).body.data.id);
      x = [0];
      const bodies = [
        [t[1]],
        [t[1], t[2]],
        { connect: [t[2], t[1]] },
        [],
        {
          connect: [
            { id: t[2], position: { start: true } },
            { id: t[1], position: { before: t[2] } },
          ],
        },
      ];
      for (const [i, tagsOf] of bodies.entries())
        x.push((await client.post('/api/articles', { data: { title: `mm-a${i + 1}`, tags: tagsOf } })).body.data.id);
    });
    const local = (list: { id: number | string }[]): number[] => list.map((e) => x.indexOf(Number(e.id)));
    const articlesOfTag = async (tag: number, query = ''): Promise<number[]> => {
      const res = await client.get(`/api/tags/${tag}?fields[0]=name&populate[articles][fields][0]=title${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return local(res.body.data.attributes.articles.data);
    };
    const tagsOfArticle = async (article: number): Promise<number[]> => {
      const res = await client.get(`/api/articles/${article}?fields[0]=title&populate[tags][fields][0]=name`);
      return (res.body.data.attributes.tags.data as { id: number }[]).map((e) => t.indexOf(e.id));
    };
    const putTag = async (tag: number, articles: unknown): Promise<number[]> => {
      const res = await client.put(`/api/tags/${tag}`, { data: { articles } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return articlesOfTag(tag);
    };
    const putArticle = async (article: number, tagsOf: unknown): Promise<void> => {
      const res = await client.put(`/api/articles/${article}`, { data: { tags: tagsOf } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };

    it('keeps positions from the inverse side; links from the owning side go to the end and stay there', async () => {
      expect(await articlesOfTag(t[1])).to.deep.equal([1, 2, 3, 5]);
      expect(await articlesOfTag(t[2])).to.deep.equal([2, 3, 5]);
      expect(await putTag(t[1], { connect: [{ id: x[3], position: { start: true } }] })).to.deep.equal([3, 1, 2, 5]);
      expect(await putTag(t[1], { connect: [{ id: x[4], position: { after: x[1] } }] })).to.deep.equal([3, 1, 4, 2, 5]);
      // linked from the inverse side: the end of the owning list
      expect(await tagsOfArticle(x[4])).to.deep.equal([1]);
      await putArticle(x[4], { connect: [t[2], t[3]] });
      expect(await articlesOfTag(t[2])).to.deep.equal([2, 3, 5, 4]);
      expect(await tagsOfArticle(x[4])).to.deep.equal([1, 2, 3]);
      // reordering the owning list does not move the entry in the tags' lists
      await putArticle(x[2], { set: [t[2], t[1]] });
      expect(await articlesOfTag(t[1])).to.deep.equal([3, 1, 4, 2, 5]);
      expect(await articlesOfTag(t[2])).to.deep.equal([2, 3, 5, 4]);
      await putArticle(x[1], { disconnect: [t[1]] });
      expect(await articlesOfTag(t[1])).to.deep.equal([3, 4, 2, 5]);
      await putArticle(x[1], { connect: [t[1]] });
      expect(await articlesOfTag(t[1])).to.deep.equal([3, 4, 2, 5, 1]);
      await putArticle(x[3], { connect: [{ id: t[1], position: { end: true } }] });
      await putArticle(x[3], [t[3], t[1]]);
      expect(await articlesOfTag(t[1])).to.deep.equal([3, 4, 2, 5, 1]);
      expect(await articlesOfTag(t[3])).to.deep.equal([4, 3]);
    });

    it('disconnect with connect, set, a bare list, non-strict positions and deletes, from the inverse side', async () => {
      expect(
        await putTag(t[1], { disconnect: [x[2]], connect: [{ id: x[5], position: { before: x[3] } }] }),
      ).to.deep.equal([5, 3, 4, 1]);
      expect(await tagsOfArticle(x[5])).to.deep.equal([1, 2]);
      expect(await putTag(t[1], { set: [x[4], x[2], x[5]] })).to.deep.equal([4, 2, 5]);
      expect(await tagsOfArticle(x[2])).to.deep.equal([2, 1]);
      expect(await putTag(t[1], [x[5], x[1]])).to.deep.equal([5, 1]);
      expect(
        await putTag(t[3], {
          connect: [
            { id: x[2], position: { after: x[4] } },
            { id: x[1], position: { start: true } },
          ],
        }),
      ).to.deep.equal([1, 4, 2, 3]);
      const strict = await client.put(`/api/tags/${t[3]}`, {
        data: { articles: { connect: [{ id: x[5], position: { after: 999999, x: 2 } }] } },
      });
      expect(strict.status).to.equal(400);
      expect(strict.body.error.message).to.equal(
        `There was a problem connecting relation with id ${x[5]} at position {"after":999999,"x":2}. The relation with id 999999 needs to be connected first.`,
      );
      expect(
        await putTag(t[3], { connect: [{ id: x[5], position: { after: x[3] } }], options: { strict: false } }),
      ).to.deep.equal([1, 4, 2, 3, 5]);
      const created = await client.post('/api/tags', {
        data: {
          name: 'mm5',
          slug: 'mm-5',
          articles: { connect: [x[3], { id: x[1], position: { start: true } }, x[2]] },
        },
      });
      expect(await articlesOfTag(created.body.data.id)).to.deep.equal([1, 3, 2]);
      expect((await client.del(`/api/articles/${x[4]}`)).status).to.equal(200);
      expect(await articlesOfTag(t[3])).to.deep.equal([1, 2, 3, 5]);
      const stored = await client.stored('api::article.article', x[1]);
      expect(Object.keys((stored?.__order as { tags: object }).tags).sort()).to.deep.equal(
        [t[1], t[3], created.body.data.id].map(String).sort(),
      );
    });

    it('the order holds in paginated populate, count, nested populate and GraphQL', async () => {
      expect(await putTag(t[4], [x[5], x[2], x[3], x[1]])).to.deep.equal([5, 2, 3, 1]);
      expect(
        await articlesOfTag(t[4], '&populate[articles][pagination][start]=1&populate[articles][pagination][limit]=2'),
      ).to.deep.equal([2, 3]);
      expect(await articlesOfTag(t[4], '&populate[articles][sort]=title:desc')).to.deep.equal([5, 3, 2, 1]);
      const counted = await client.get(`/api/tags/${t[4]}?fields[0]=name&populate[articles][count]=true`);
      expect(counted.body.data.attributes.articles).to.deep.equal({ data: { attributes: { count: 4 } } });
      const gql = await client.post('/graphql', {
        query: `{ tag(id: ${t[4]}) { data { attributes {
          articles { data { id } }
          p: articles(pagination: { start: 1, limit: 2 }) { data { id } }
          s: articles(sort: "title:asc") { data { id } } } } } }`,
      });
      const attributes = gql.body.data.tag.data.attributes;
      expect(local(attributes.articles.data)).to.deep.equal([5, 2, 3, 1]);
      expect(local(attributes.p.data)).to.deep.equal([2, 3]);
      expect(local(attributes.s.data)).to.deep.equal([1, 2, 3, 5]);
      const many = await client.post('/graphql', {
        query: `{ tags(filters: { id: { in: [${t[1]}, ${t[4]}] } }) { data { id attributes {
          articles(pagination: { page: 1, pageSize: 3 }) { data { id } } } } } }`,
      });
      expect(
        (many.body.data.tags.data as { attributes: { articles: { data: { id: string }[] } } }[]).map((tag) =>
          local(tag.attributes.articles.data),
        ),
      ).to.deep.equal([
        [5, 1],
        [5, 2, 3],
      ]);
      const updated = await client.post('/graphql', {
        query: `mutation { updateTag(id: ${t[4]}, data: { articles: [${x[3]}, ${x[1]}, ${x[5]}] }) {
          data { attributes { articles { data { id } } } } } }`,
      });
      expect(local(updated.body.data.updateTag.data.attributes.articles.data)).to.deep.equal([3, 1, 5]);
      await client.post('/graphql', {
        query: `mutation { updateArticle(id: ${x[2]}, data: { tags: [${t[4]}] }) { data { id } } }`,
      });
      expect(await articlesOfTag(t[4])).to.deep.equal([3, 1, 5, 2]);
      const nested = await client.get(
        `/api/articles/${x[2]}?fields[0]=title&populate[tags][populate][articles][fields][0]=title`,
      );
      expect(local(nested.body.data.attributes.tags.data[0].attributes.articles.data)).to.deep.equal([3, 1, 5, 2]);
    });

    it('a position is read as Strapi reads it: no object or no flag is the end', async () => {
      const tag = (await client.post('/api/tags', { data: { name: 'pos', slug: 'pos-1' } })).body.data.id as number;
      expect(await putTag(tag, { connect: [{ id: x[1], position: 'abc' }] })).to.deep.equal([1]);
      expect(await putTag(tag, { connect: [{ id: x[2], position: { start: false } }] })).to.deep.equal([1, 2]);
      expect(await putTag(tag, { connect: [{ id: x[3], position: { start: 1 } }] })).to.deep.equal([3, 1, 2]);
      expect(await putTag(tag, { connect: [{ id: x[1], position: { before: x[3], foo: 1 } }] })).to.deep.equal([
        1, 3, 2,
      ]);
      expect(await putTag(tag, { connect: [{ id: x[2], position: null }] })).to.deep.equal([1, 3, 2]);
      expect(await putTag(tag, { connect: [{ id: x[2], position: {} }] })).to.deep.equal([1, 3, 2]);
      expect(await putTag(tag, { connect: [{ id: x[2], position: { end: false, start: true } }] })).to.deep.equal([
        2, 1, 3,
      ]);
    });
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
