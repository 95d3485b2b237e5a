// Regression: fragments that each spread the next one twice (F0 → F1 F1 → F2 F2 …) made the
// depthLimit rule walk 2^n paths: 30 of them in a 1.5 kB document held the event loop for
// minutes. Each fragment is now walked once per depth, and the cost limit refuses the document.
import { expect } from 'chai';
import { gql } from '../graphql/helpers.js';
import { withCpuTime } from '../helpers/cpu-time.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: GraphQL fragments fanning out', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
  });
  after(() => service.close());

  const fanOut = (levels: number) => {
    let document = 'query { tags { data { ...F0 } } } ';
    for (let i = 0; i < levels; i++) document += `fragment F${i} on TagEntity { ...F${i + 1} ...F${i + 1} } `;
    return `${document}fragment F${levels} on TagEntity { id }`;
  };

  it('refuses 2^40 fragment paths at once, as too costly', async () => {
    const { result: res, cpuMs } = await withCpuTime(() => gql(service, fanOut(40)));
    expect(cpuMs).to.be.below(5_000);
    expect(res.status).to.equal(400);
    expect(res.body.errors?.[0]?.message).to.match(/^The query has over 100000 fields once its fragments are spread/);
  });

  it('walks each fragment once for depthLimit: without a cost limit the document runs', async () => {
    const unpriced = await createTestService({
      config: { plugins: { graphql: { enabled: true, config: { costLimit: 0 } } } },
    });
    try {
      const { result: res, cpuMs } = await withCpuTime(() => gql(unpriced, fanOut(40)));
      expect(cpuMs).to.be.below(5_000);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal({ tags: { data: [] } });
    } finally {
      await unpriced.close();
    }
  });
});
