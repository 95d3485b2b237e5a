// Parallel relation writes over HTTP, then the invariants checked in storage with a raw driver:
// every acknowledged connect/disconnect is there, no stored id points at a deleted entry.
import { expect } from 'chai';
import { createMany, startCluster, statuses, type Cluster, type RawDoc } from './helpers.js';

const numbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

for (const instances of [1, 2]) {
  describe(`concurrent relation writes (${instances} service instance${instances > 1 ? 's' : ''} on one database)`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    let tags: number[];
    before(async () => {
      cluster = await startCluster(instances);
      tags = await createMany(cluster, 'tags', 40, (i) => ({ name: `tag ${i}`, slug: `tag-${i}` }));
    });
    after(() => cluster.close());

    const newArticle = async (data: object = {}): Promise<number> =>
      (await createMany(cluster, 'articles', 1, () => ({ title: 'parallel', ...data })))[0];
    const stored = async (id: number): Promise<RawDoc> => (await cluster.docs('articles', { _id: id }))[0];

    it('40 parallel connects to one manyToMany keep every acknowledged link', async () => {
      const article = await newArticle();
      const responses = await Promise.all(
        tags.map((tag, i) => cluster.put(i, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } })),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 40 });
      expect(numbers((await stored(article)).tags).sort((a, b) => a - b)).to.deep.equal(tags);
    });

    it('30 parallel connects with positions (read, then compare-and-set) all land', async () => {
      const article = await newArticle({ tags: [tags[0]] });
      const responses = await Promise.all(
        tags.slice(1, 31).map((tag, i) =>
          cluster.put(i, `/api/articles/${article}`, {
            data: { tags: { connect: [{ id: tag, position: i % 2 === 0 ? { start: true } : { after: tags[0] } }] } },
          }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 30 });
      expect(numbers((await stored(article)).tags).sort((a, b) => a - b)).to.deep.equal(tags.slice(0, 31));
    });

    it('connecting a connected id again moves it to the end, alone or in parallel', async () => {
      const article = await newArticle({ tags: tags.slice(0, 3) });
      const again = await cluster.put(0, `/api/articles/${article}`, { data: { tags: { connect: [tags[0]] } } });
      expect(again.status).to.equal(200);
      expect(numbers((await stored(article)).tags)).to.deep.equal([tags[1], tags[2], tags[0]]);
      const responses = await Promise.all(
        tags
          .slice(0, 30)
          .map((tag, i) => cluster.put(i, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } })),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 30 });
      expect(numbers((await stored(article)).tags).sort((a, b) => a - b)).to.deep.equal(tags.slice(0, 30));
    });

    it('parallel disconnects and connects on one entry all land', async () => {
      const [first, second] = [tags.slice(0, 20), tags.slice(20)];
      const article = await newArticle({ tags: first });
      const responses = await Promise.all([
        ...first.map((tag, i) => cluster.put(i, `/api/articles/${article}`, { data: { tags: { disconnect: [tag] } } })),
        ...second.map((tag, i) =>
          cluster.put(i + 1, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } }),
        ),
      ]);
      expect(statuses(responses)).to.deep.equal({ 200: 40 });
      expect(numbers((await stored(article)).tags).sort((a, b) => a - b)).to.deep.equal(second);
    });

    it('connects from both sides of a manyToMany in parallel all land', async () => {
      const article = await newArticle();
      const responses = await Promise.all(
        tags.map((tag, i) =>
          i % 2 === 0
            ? cluster.put(i, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } })
            : cluster.put(i, `/api/tags/${tag}`, { data: { articles: { connect: [article] } } }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 40 });
      expect(numbers((await stored(article)).tags).sort((a, b) => a - b)).to.deep.equal(tags);
    });

    it('parallel links to one tag from both sides keep one order key per link and a list of each entry once', async () => {
      const tag = tags[39];
      const articles = await createMany(cluster, 'articles', 30, (i) => ({ title: `ordered ${i}` }));
      const responses = await Promise.all(
        articles.map((article, i) =>
          i % 3 === 0
            ? cluster.put(i, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } })
            : i % 3 === 1
              ? cluster.put(i, `/api/tags/${tag}`, {
                  data: { articles: { connect: [{ id: article, position: { start: true } }] } },
                })
              : cluster.put(i, `/api/articles/${article}`, {
                  data: { tags: { connect: [{ id: tag, position: { start: true } }] } },
                }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 30 });
      for (const doc of await cluster.docs('articles', { _id: { $in: articles } })) {
        const keys = Object.keys(((doc.__order ?? {}) as { tags?: object }).tags ?? {});
        expect(
          keys.map(Number).sort((a, b) => a - b),
          `article ${doc._id}`,
        ).to.deep.equal(numbers(doc.tags));
      }
      const listed = await cluster.get(
        `/api/tags/${tag}?populate[articles][fields][0]=title&populate[articles][pagination][pageSize]=100`,
      );
      const ids = (listed.body.data.attributes.articles.data as { id: number }[]).map((e) => e.id);
      // the tag was linked by the tests before too: each entry once, all of these among them
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids.filter((id) => articles.includes(id)).sort((a, b) => a - b)).to.deep.equal(articles);
    });

    it('parallel positioned connects on the inverse side keep an order some serial run gives', async () => {
      const [tag] = await createMany(cluster, 'tags', 1, () => ({ name: 'ordered', slug: `ordered-${instances}` }));
      const [first, last, ...placed] = await createMany(cluster, 'articles', 20, (i) => ({ title: `placed ${i}` }));
      expect((await cluster.put(0, `/api/tags/${tag}`, { data: { articles: [first, last] } })).status).to.equal(200);
      // in any serial run, every entry put after `first` precedes every entry put before `last`
      const after = placed.filter((_, i) => i % 2 === 0);
      const before = placed.filter((_, i) => i % 2 === 1);
      const responses = await Promise.all(
        placed.map((article, i) =>
          cluster.put(i, `/api/tags/${tag}`, {
            data: {
              articles: {
                connect: [{ id: article, position: after.includes(article) ? { after: first } : { before: last } }],
              },
            },
          }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 18 });
      const listed = await cluster.get(
        `/api/tags/${tag}?populate[articles][fields][0]=title&populate[articles][pagination][pageSize]=100`,
      );
      const ids = (listed.body.data.attributes.articles.data as { id: number }[]).map((e) => e.id);
      expect(ids[0]).to.equal(first);
      expect(ids.at(-1)).to.equal(last);
      const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
      expect(sorted(ids.slice(1, 10)), JSON.stringify(ids)).to.deep.equal(sorted(after));
      expect(sorted(ids.slice(10, 19)), JSON.stringify(ids)).to.deep.equal(sorted(before));
    });

    it('links written while their targets are deleted leave no dangling id', async () => {
      const victims = await createMany(cluster, 'tags', 30, (i) => ({
        name: `victim ${i}`,
        slug: `victim-${instances}-${i}`,
      }));
      const authors = await createMany(cluster, 'authors', 30, (i) => ({ name: `gone ${i}` }));
      const article = await newArticle();
      const responses = await Promise.all([
        ...victims.map((tag, i) => cluster.put(i, `/api/articles/${article}`, { data: { tags: { connect: [tag] } } })),
        ...victims.map((tag, i) => cluster.del(i + 1, `/api/tags/${tag}`)),
        ...authors.map((author, i) => cluster.post(i, '/api/articles', { data: { title: `by ${author}`, author } })),
        ...authors.map((author, i) => cluster.del(i + 1, `/api/authors/${author}`)),
      ]);
      for (const res of responses) expect([200, 400, 404], JSON.stringify(res.body)).to.include(res.status);
      const liveTags = new Set((await cluster.docs('tags')).map((doc) => doc._id));
      const liveAuthors = new Set((await cluster.docs('authors')).map((doc) => doc._id));
      for (const doc of await cluster.docs('articles')) {
        for (const tag of numbers(doc.tags))
          expect(liveTags.has(tag), `article ${doc._id} → tag ${tag}`).to.equal(true);
        if (typeof doc.author === 'number')
          expect(liveAuthors.has(doc.author), `article ${doc._id} → author ${doc.author}`).to.equal(true);
      }
      for (const victim of victims) expect(liveTags.has(victim)).to.equal(false);
    });

    it('an entry linked from the inverse side while it is deleted leaves no dangling id', async () => {
      const articles = await createMany(cluster, 'articles', 30, (i) => ({ title: `to author ${i}` }));
      const authors = await createMany(cluster, 'authors', 30, (i) => ({ name: `short-lived ${i}` }));
      await Promise.all([
        ...authors.map((author, i) =>
          cluster.put(i, `/api/authors/${author}`, { data: { articles: { connect: [articles[i]] } } }),
        ),
        ...authors.map((author, i) => cluster.del(i + 1, `/api/authors/${author}`)),
      ]);
      const liveAuthors = new Set((await cluster.docs('authors')).map((doc) => doc._id));
      for (const doc of await cluster.docs('articles', { _id: { $in: articles } }))
        if (typeof doc.author === 'number') expect(liveAuthors.has(doc.author), `article ${doc._id}`).to.equal(true);
    });
  });
}
