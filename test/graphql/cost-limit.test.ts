import { expect } from 'chai';
import { withCpuTime } from '../helpers/cpu-time.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { gql } from './helpers.js';

const aliases = (n: number, selection: string) =>
  `query($size: Int) { ${Array.from({ length: n }, (_, i) => `a${i}: articles(pagination: { pageSize: $size }) ${selection}`).join(' ')} }`;

/** `costLimit`: aliases × page sizes × nesting, checked before anything runs. */
describe('GraphQL cost limit', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  it('runs what a front-end asks (nested relations, a page of 100)', async () => {
    const page = await gql(
      service,
      `{ articles(pagination: { pageSize: 100 }) { data { id attributes { title author { data { attributes { name } } }
         tags(pagination: { pageSize: 20 }) { data { attributes { name } } } category { data { attributes { name
         articles(pagination: { pageSize: 5 }) { data { attributes { title } } } } } } } } meta { pagination { total } } } }`,
    );
    expect(page.status, JSON.stringify(page.body.errors)).to.equal(200);
    expect(page.body.errors).to.equal(undefined);
  });

  it('refuses 1,000 aliases of 100 entries in well under 2 s of CPU, before running them, while other requests keep answering', async () => {
    const {
      result: [bomb, ...others],
      cpuMs,
    } = await withCpuTime(() =>
      Promise.all([
        gql(service, aliases(1000, '{ data { id attributes { title } } }'), { size: 100 }),
        ...Array.from({ length: 5 }, () => gql(service, '{ tags { data { id } } }')),
      ]),
    );
    expect(cpuMs).to.be.below(2_000);
    expect(bomb.status).to.equal(400);
    expect(bomb.body.data).to.equal(undefined);
    expect(bomb.body.errors).to.deep.equal([
      {
        message:
          'The query cost 1401000: over the maximum cost of 100000; ask for smaller pages, fewer aliases or less nesting',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
    for (const res of others) expect(res.status).to.equal(200);
  });

  it('prices the page sizes the variables ask for, request by request (the same document may pass or not)', async () => {
    // each alias: 1 + 1,000 (a read) + size × 4 (data, id, attributes, title)
    const document = aliases(72, '{ data { id attributes { title } } }');
    expect((await gql(service, document, { size: 2 })).status).to.equal(200);
    const big = await gql(service, document, { size: 100 });
    expect(big.status).to.equal(400);
    expect(big.body.errors?.[0]?.message).to.match(/^The query cost 100872: over the maximum cost of 100000/);
    // nested lists multiply: 100 articles × 100 tags × 100 articles is refused however few aliases
    const nested = await gql(
      service,
      `{ articles(pagination: { limit: 100 }) { data { attributes { tags(pagination: { limit: 100 }) { data {
         attributes { articles(pagination: { limit: 100 }) { data { id } } } } } } } } }`,
    );
    expect(nested.status).to.equal(400);
  });

  it('reads plugins.graphql.config.costLimit (0: no limit)', async () => {
    for (const [costLimit, status] of [
      [2_000, 400],
      [0, 200],
    ] as const) {
      const custom = await createTestService({
        config: { plugins: { graphql: { enabled: true, config: { costLimit } } } },
      });
      try {
        const res = await gql(custom, aliases(20, '{ data { id } }'), { size: 100 });
        expect(res.status, `costLimit ${costLimit}`).to.equal(status);
      } finally {
        await custom.close();
      }
    }
  });
});
