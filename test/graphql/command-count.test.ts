import { expect } from 'chai';
import { seededCommandCountingService } from '../helpers/seed.js';
import type { TestService } from '../helpers/server.js';
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
});
