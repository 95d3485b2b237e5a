import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

/**
 * Nodes link to every other node (`links`, one-way manyToMany): each level of a sort through
 * `links` multiplies the rows to sort (Strapi's join semantics), and each populate level the
 * answer (the joins themselves are shared between the entries of a level).
 */
const NODES = 40;
/** Pages hold 1 MB of text and link to every page: a page with its links populated twice is over 16 MB. */
const PAGES = 6;
const MB = 1024 * 1024;
const TIME_BUDGET_MS = 1_000;

function populateChain(depth: number): string {
  let query = '';
  for (let i = 0; i < depth; i++) query += `${i === 0 ? 'populate' : '[populate]'}[links]`;
  return `${query}=*`;
}

function linkSelection(depth: number, leaf: string): string {
  let selection = leaf;
  for (let i = 0; i < depth; i++)
    selection = `${leaf} links(pagination: { limit: 100 }) { data { id attributes { ${selection} } } }`;
  return selection;
}

describe('REST and GraphQL: time budget of database reads, 16 MB answers', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        node: collectionTypeSchema('node', 'nodes', {
          title: { type: 'string' },
          links: { type: 'relation', relation: 'manyToMany', target: 'api::node.node' },
        }),
        page: collectionTypeSchema('page', 'pages', {
          text: { type: 'text' },
          links: { type: 'relation', relation: 'manyToMany', target: 'api::page.page' },
        }),
      },
      config: {
        permissions: {
          public: ['api::node.node.find', 'api::node.node.findOne', 'api::page.page.find', 'api::page.page.findOne'],
        },
        // no cost limit (0): it would refuse these reads before they run, and the database's limits are tested
        plugins: { graphql: { enabled: true, config: { depthLimit: 30, amountLimit: 100, costLimit: 0 } } },
      },
    });
    service = await createTestService({
      appDir: dir,
      // the budget is the window in which plain requests must be answered: on a busy 2-core machine a
      // plain read took over 150 ms, and with 300 ms no second one fitted in (the suite failed)
      config: { api: { rest: { defaultLimit: 25, maxLimit: 100, withCount: true, timeBudgetMs: TIME_BUDGET_MS } } },
    });
    // stored layout written directly: the reads are what is tested here
    const db = service.context.connection.getClient().db(service.context.connection.name);
    const now = new Date();
    const all = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    await db.collection<{ _id: number }>('nodes').insertMany(
      all(NODES).map((id) => ({
        _id: id,
        title: `node ${id}`,
        links: all(NODES).filter((other) => other !== id),
        createdAt: now,
        updatedAt: now,
      })),
    );
    await db.collection<{ _id: number }>('pages').insertMany(
      all(PAGES).map((id) => ({
        _id: id,
        text: String(id).repeat(MB),
        links: all(PAGES),
        createdAt: now,
        updatedAt: now,
      })),
    );
  });
  after(() => service.close());

  it('a read over its time budget is refused quickly (400) while plain requests keep answering', async () => {
    const started = performance.now();
    let finished = false;
    const bomb = request(service.app)
      .get(`/api/nodes?pagination[pageSize]=${NODES}&sort=links.links.links.title`)
      .then((res) => {
        finished = true;
        return { res, ms: performance.now() - started };
      });
    const plain: number[] = [];
    while (!finished) plain.push((await request(service.app).get('/api/nodes/1')).status);
    const { res, ms } = await bomb;
    expect(res.status).to.equal(400);
    expect(res.body.data).to.equal(null);
    expect(res.body.error).to.include({ status: 400, name: 'ApplicationError' });
    expect(res.body.error.message)
      .to.match(/took too long/)
      .and.match(/populate/)
      .and.match(/pageSize/);
    expect(ms, 'refused at its budget, not once it ran to its end').to.be.lessThan(TIME_BUDGET_MS + 2_000);
    expect(plain.length, 'plain requests answered meanwhile').to.be.greaterThan(1);
    expect(plain.every((status) => status === 200)).to.equal(true);
  });

  it('a populate chain whose answer multiplies at every level is refused, and nothing waits for it', async () => {
    // the joins are shared between the entries of a level, so the database finds them at once;
    // written out, an entry would hold 39^3 entries (39^4 one level deeper)
    for (const depth of [4, 5]) {
      const started = performance.now();
      let finished = false;
      const bomb = request(service.app)
        .get(`/api/nodes?pagination[pageSize]=${NODES}&${populateChain(depth)}`)
        .then((res) => {
          finished = true;
          return res;
        });
      const plain: number[] = [];
      while (!finished) plain.push((await request(service.app).get('/api/nodes/1')).status);
      const res = await bomb;
      expect(res.status).to.equal(400);
      expect(res.body.error.message)
        .to.match(/populate/)
        .and.match(/pageSize/);
      expect(performance.now() - started, 'refused in seconds, not minutes').to.be.lessThan(10_000);
      expect(plain.length, 'plain requests answered meanwhile').to.be.greaterThan(1);
      expect(plain.every((status) => status === 200)).to.equal(true);
    }
  });

  it('GraphQL answers an over-budget read with a GraphQL error carrying the same message', async () => {
    const res = await request(service.app)
      .post('/graphql')
      .send({
        query: `{ nodes(pagination: { limit: ${NODES} }, sort: "links.links.links.title") { data { id attributes { title } } } }`,
      });
    expect(res.status).to.equal(200);
    const [error] = res.body.errors as Array<{ message: string; extensions: Record<string, unknown> }>;
    expect(error?.message).to.match(/took too long/);
    expect(error?.extensions.code).to.equal('STRAPI_APPLICATION_ERROR');
  });

  it('an answer with an entry over 16 MB is a 400 saying to narrow populate or the page size', async () => {
    const res = await request(service.app).get(`/api/pages?${populateChain(2)}`);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ status: 400, name: 'ApplicationError' });
    expect(res.body.error.message)
      .to.match(/over 16 MB/)
      .and.match(/populate/)
      .and.match(/pageSize/);
    // narrower reads of the same entries answer
    const narrow = await request(service.app).get(`/api/pages?fields[0]=id&populate[links][fields][0]=id`);
    expect(narrow.status).to.equal(200);
    expect(narrow.body.data).to.have.length(PAGES);
  });

  it('GraphQL answers an answer over 16 MB with a GraphQL error carrying the same message', async () => {
    const res = await request(service.app)
      .post('/graphql')
      .send({ query: `{ pages { data { id attributes { ${linkSelection(2, 'text')} } } } }` });
    const [error] = res.body.errors as Array<{ message: string }>;
    expect(error?.message).to.match(/over 16 MB/);
  });
});
