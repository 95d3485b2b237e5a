import { expect } from 'chai';
import { seededCommandCountingService } from '../helpers/seed.js';
import type { TestService } from '../helpers/server.js';
import { writeClient } from '../helpers/write-client.js';
import { at, gql } from './helpers.js';

/**
 * A nested GraphQL query is ONE aggregation (+ one count only when total/pageCount is selected),
 * whatever the number of entries: bench scenario e (articles with author, tags, and their category
 * with 5 of its articles). Strapi's GraphQL runs one query per relation per entry here.
 */
describe('GraphQL: MongoDB commands per nested query', () => {
  let service: TestService;
  let commands: string[] = [];
  before(async () => {
    ({ service, commands } = await seededCommandCountingService());
  });
  after(() => service.close());

  const scenarioE = (
    pageSize: number,
    meta: string,
  ) => `{ articles(pagination: { pageSize: ${pageSize} }) { data { id attributes { title
    author { data { id attributes { name } } }
    tags { data { id attributes { name } } }
    category { data { id attributes { name articles(pagination: { limit: 5 }) { data { id attributes { title } } } } } } } } ${meta} } }`;

  async function commandsFor(query: string): Promise<{ names: string[]; entries: number }> {
    commands.length = 0;
    const res = await gql(service, query);
    expect(res.body.errors).to.equal(undefined);
    return { names: [...commands], entries: (at(res.body, 'data.articles.data') as unknown[]).length };
  }

  it('runs one aggregate for 1, 5 or 25 entries with author, tags and category.articles', async () => {
    for (const size of [1, 5, 25]) {
      const { names, entries } = await commandsFor(scenarioE(size, ''));
      expect(entries).to.equal(size);
      expect(names, `pageSize ${size}`).to.deep.equal(['aggregate']);
    }
  });

  it('adds exactly one count when meta.pagination.total is selected, none for page/pageSize', async () => {
    expect((await commandsFor(scenarioE(25, 'meta { pagination { total pageCount } }'))).names.sort()).to.deep.equal([
      'aggregate',
      'aggregate',
    ]);
    expect((await commandsFor(scenarioE(25, 'meta { pagination { page pageSize } }'))).names).to.deep.equal([
      'aggregate',
    ]);
  });

  it('reads aliases of one relation with different arguments, and filtered component lists, in that one aggregate', async () => {
    const query = `{ articles(pagination: { pageSize: 25 }) { data { id attributes {
      a: tags(filters: { name: { eq: "GraphQL" } }) { data { id } } b: tags(sort: "name:desc") { data { id } }
      links(filters: { external: { eq: true } }) { id } } } } }`;
    expect((await commandsFor(query)).names).to.deep.equal(['aggregate']);
  });

  it('fills every nested level from that one read', async () => {
    const res = await gql(service, scenarioE(3, ''));
    const first = (at(res.body, 'data.articles.data') as Array<{ attributes: Record<string, unknown> }>)[0];
    expect(first?.attributes.author).to.deep.equal({ data: { id: '1', attributes: { name: 'Alice Martin' } } });
    const categoryArticles = at(first?.attributes as never, 'category.data.attributes.articles.data') as unknown[];
    expect(categoryArticles.length).to.be.within(1, 5);
  });

  it("reads five of a category's articles in list order, not every article of the category", async () => {
    const client = await writeClient(service);
    const category = await client.post('/api/categories', { data: { name: 'Windowed', slug: 'windowed' } });
    expect(category.status).to.equal(200);
    const created: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await client.post('/api/articles', {
        data: { title: `windowed ${i}`, slug: `windowed-${i}`, category: category.body.data.id },
      });
      expect(res.status).to.equal(200);
      created.push(res.body.data.id as number);
    }
    // moving the first article to another category and back puts it at the end of the list
    await client.put(`/api/articles/${created[0]}`, { data: { category: null } }).expect(200);
    await client.put(`/api/articles/${created[0]}`, { data: { category: category.body.data.id } }).expect(200);
    const db = service.context.connection.db;
    if (!db) throw new Error('not connected');
    const examined = async () =>
      Number((await db.admin().command({ serverStatus: 1 })).metrics.queryExecutor.scannedObjects);
    // what the window reads: the query with it less the same query without it (look-ups aside)
    const query = (window: string) =>
      `{ category(id: ${category.body.data.id}) { data { id attributes { ${window} } } } }`;
    const window = 'articles(pagination: { limit: 5 }) { data { id } }';
    // the engine's counters are shared with every other database of the run: the least of a few
    // tries leaves out work done meanwhile elsewhere
    const costOf = async (q: string) => {
      await gql(service, q);
      let docs = Infinity;
      let res = await gql(service, q);
      for (let i = 0; i < 4; i++) {
        const before = await examined();
        res = await gql(service, q);
        docs = Math.min(docs, (await examined()) - before);
      }
      return { res, docs };
    };
    const without = await costOf(query('name'));
    const { res, docs } = await costOf(query(window));
    const ids = (at(res.body, 'data.category.data.attributes.articles.data') as Array<{ id: string }>).map((a) =>
      Number(a.id),
    );
    expect(ids).to.deep.equal(created.slice(1, 6));
    expect(docs - without.docs).to.be.at.most(5);
  });
});
