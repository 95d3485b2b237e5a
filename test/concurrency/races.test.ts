// Races the other concurrency suites leave out, each between two service instances on one database:
// the losers of a unique value created at once answer exactly the 400 a serial duplicate gets; a
// repeatable component list replaced by two clients ends as one of them (never a mix); a publish
// racing an update of the same attributes ends as one serial order; and entries deleted while
// GraphQL queries populate them never make a query fail.
import { expect } from 'chai';
import { createMany, range, startCluster, statuses, type Cluster } from './helpers.js';

interface StoredLinks {
  links: Array<{ id: number; label: string }>;
}

describe('races between two service instances', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster(2);
  });
  after(() => cluster.close());

  const links = (labels: string[]) => labels.map((label) => ({ label, url: `https://${label}.example` }));
  const storedLabels = async (id: number): Promise<string[]> => {
    const [stored] = (await cluster.docs('articles', { _id: id })) as unknown as StoredLinks[];
    return stored!.links.map((l) => l.label);
  };

  it('a unique value created on both instances at once: one 200, the others the 400 a serial duplicate gets', async () => {
    const post = (i: number, slug: string) =>
      cluster.post(i, '/api/categories', { data: { name: 'unique across instances', slug } });
    const answers = await Promise.all(range(0, 9).map((i) => post(i, `raced-${i}`)));
    expect(statuses(answers)).to.deep.equal({ 200: 1, 400: 9 });
    const serial = await post(0, 'serial');
    expect(serial.status).to.equal(400);
    expect(serial.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'This attribute must be unique',
        details: { errors: [{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError' }] },
      },
    });
    for (const answer of answers.filter((a) => a.status === 400)) expect(answer.body).to.deep.equal(serial.body);
    expect(await cluster.docs('categories', { name: 'unique across instances' })).to.have.length(1);
  });

  it('a publish racing an update of the same attributes ends as one of the two serial orders', async () => {
    for (let round = 0; round < 6; round++) {
      const [id] = await createMany(cluster, 'articles', 1, () => ({
        title: 'draft',
        links: links(['draft']),
        publishedAt: null,
      }));
      const publishedAt = new Date(Date.UTC(2026, 0, round + 1)).toISOString();
      const answers = await Promise.all([
        cluster.put(round, `/api/articles/${id}`, {
          data: { publishedAt, title: 'as published', links: links(['p1', 'p2']) },
        }),
        cluster.put(round + 1, `/api/articles/${id}`, { data: { title: 'as updated', links: links(['u1']) } }),
      ]);
      expect(statuses(answers)).to.deep.equal({ 200: 2 });
      const [stored] = (await cluster.docs('articles', { _id: id })) as unknown as (StoredLinks & {
        title: string;
        publishedAt: Date;
      })[];
      expect(stored!.publishedAt.toISOString()).to.equal(publishedAt);
      const outcome = [stored!.title, stored!.links.map((l) => l.label).join()];
      expect([
        ['as published', 'p1,p2'],
        ['as updated', 'u1'],
      ]).to.deep.include(outcome);
    }
  });

  it('a repeatable component list replaced by two clients at once is one of the two lists', async () => {
    const sets = [['a1', 'a2'], ['b1', 'b2', 'b3'], ['c1']];
    for (let round = 0; round < 6; round++) {
      const [id] = await createMany(cluster, 'articles', 1, () => ({ title: 'lists', links: links(['first']) }));
      const answers = await Promise.all(
        sets.map((set, i) => cluster.put(i + round, `/api/articles/${id}`, { data: { links: links(set) } })),
      );
      expect(statuses(answers)).to.deep.equal({ 200: sets.length });
      expect(sets.map((set) => set.join())).to.include((await storedLabels(id!)).join());
    }
  });

  it('a list edit keeping an item by id, racing a replacement dropping it: the replacement, or the edit after it refused', async () => {
    for (let round = 0; round < 6; round++) {
      const [id] = await createMany(cluster, 'articles', 1, () => ({ title: 'kept', links: links(['kept']) }));
      const [created] = (await cluster.docs('articles', { _id: id })) as unknown as StoredLinks[];
      const kept = created!.links[0]!.id;
      const [edit, replace] = await Promise.all([
        cluster.put(round, `/api/articles/${id}`, {
          data: { links: [{ id: kept, label: 'edited' }, ...links(['added'])] },
        }),
        cluster.put(round + 1, `/api/articles/${id}`, { data: { links: links(['r1', 'r2']) } }),
      ]);
      expect(replace.status).to.equal(200);
      // serial orders: the edit then the replacement (both 200), or the replacement then the edit,
      // which names an item the entry no longer has (400): either way the replacement's list
      expect([200, 400]).to.include(edit.status);
      if (edit.status === 400)
        expect(edit.body.error.message).to.equal(
          'Some of the provided components in links are not related to the entity',
        );
      expect(await storedLabels(id!)).to.deep.equal(['r1', 'r2']);
    }
  });

  it('entries deleted while GraphQL queries populate them: every query answers without errors', async () => {
    const tags = await createMany(cluster, 'tags', 8, (i) => ({ name: `raced tag ${i}` }));
    const categories = await createMany(cluster, 'categories', 3, (i) => ({ name: `raced category ${i}` }));
    await createMany(cluster, 'articles', 6, (i) => ({
      title: `populated ${i}`,
      tags: tags,
      category: categories[i % categories.length],
      publishedAt: new Date().toISOString(),
    }));
    const query = `{ articles(filters: { title: { startsWith: "populated" } }, pagination: { pageSize: 10 }) {
      data { id attributes { title
        tags(pagination: { pageSize: 20 }) { data { id attributes { name articles { data { id } } } } }
        category { data { id attributes { name } } } } } } }`;
    const reads = range(0, 11).map(async (i) => {
      const res = await cluster.post(i, '/graphql', { query });
      return { status: res.status, errors: (res.body as { errors?: unknown }).errors };
    });
    const deletes = [
      ...tags.map((tag, i) => cluster.del(i, `/api/tags/${tag}`)),
      ...categories.map((category, i) => cluster.del(i, `/api/categories/${category}`)),
    ];
    const [answers, deleted] = await Promise.all([Promise.all(reads), Promise.all(deletes)]);
    expect(statuses(deleted)).to.deep.equal({ 200: tags.length + categories.length });
    expect(answers.filter((a) => a.status !== 200 || a.errors !== undefined)).to.deep.equal([]);
    const after = await cluster.post(0, '/graphql', { query });
    const articles = (
      after.body as { data: { articles: { data: { attributes: Record<string, { data: unknown }> }[] } } }
    ).data.articles.data;
    expect(articles).to.have.length(6);
    for (const article of articles) {
      expect(article.attributes.tags!.data).to.deep.equal([]);
      expect(article.attributes.category!.data).to.equal(null);
    }
  });
});
