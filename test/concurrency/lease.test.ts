import { expect } from 'chai';
import { leaseTiming, withLease, withNamedLease } from '../../src/write/index.js';
import { createTestService, type TestService } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two holders doing a read-modify-write with a slow step in the middle: the second may only read
// once the first has written, however long the first one's work takes. The hold time is short so
// the tests are quick, and long enough that a busy machine's stalls (hundreds of ms) do not delay
// a renewal (every third of it) past it: with 300 ms a second holder took a lease still worked on.
describe('leases held longer than their hold time', function () {
  this.timeout(20_000);
  let service: TestService;
  const saved = { ...leaseTiming };
  before(async () => {
    service = await createTestService();
    Object.assign(leaseTiming, { holdMs: 1_000, waitMs: 15_000 });
  });
  after(async () => {
    Object.assign(leaseTiming, saved);
    await service.close();
  });

  const counters = () => service.context.models.connection.db!.collection<{ _id: string; n: number }>('lease_probe');

  async function slowIncrement(key: string): Promise<void> {
    const current = await counters().findOne({ _id: key });
    await sleep(1.5 * leaseTiming.holdMs);
    await counters().updateOne({ _id: key }, { $set: { n: (current?.n ?? 0) + 1 } }, { upsert: true });
  }

  it('a named lease is renewed while its work runs: no second holder meanwhile', async () => {
    const models = service.context.models;
    await Promise.all([1, 2, 3].map(() => withNamedLease(models, 'probe:named', () => slowIncrement('named'))));
    expect((await counters().findOne({ _id: 'named' }))?.n).to.equal(3);
  });

  it("an entry's lease is renewed while its work runs: no second holder meanwhile", async () => {
    const { models } = service.context;
    const role = await models.collection('plugin::users-permissions.role').findOne({ type: 'public' });
    const id = role!._id as unknown as number;
    const gone = () => new Error('gone');
    await Promise.all(
      [1, 2, 3].map(() => withLease(models, 'plugin::users-permissions.role', id, gone, () => slowIncrement('entry'))),
    );
    expect((await counters().findOne({ _id: 'entry' }))?.n).to.equal(3);
    // given back: nothing left of it
    expect(await models.connection.db!.collection('content_service_leases').countDocuments({})).to.equal(0);
  });

  it('a lease whose holder died (never renewed, never given back) is taken after the hold time', async () => {
    const db = service.context.models.connection.db!;
    const until = Date.now() + leaseTiming.holdMs;
    await db
      .collection<{ _id: string; owner: string; until: number }>('content_service_leases')
      .insertOne({ _id: 'probe:dead', owner: 'a writer that died', until });
    // taken once its time is over (not before), and long before the wait gives up
    const takenAt = await withNamedLease(service.context.models, 'probe:dead', async () => Date.now());
    expect(takenAt).to.be.within(until, until + leaseTiming.waitMs / 2);
  });
});
