import { expect } from 'chai';
import type { Collection, Sort } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// Compound keys are kept as values laid out in the index's leaves (not one array per entry):
// thousands of entries inserted out of order (leaves split), moved by updates and deleted must
// answer counts, ranges and ordered pages as a collection without indexes does.
describe('engine: compound index entries after splits, moves and deletes', function () {
  this.timeout(60_000);
  let server: TestServer;
  let plain: Collection<AnyDoc>;
  let indexed: Collection<AnyDoc>;

  before(async () => {
    server = await startTestServer('compound-entries');
    plain = server.db.collection<AnyDoc>('plain');
    indexed = server.db.collection<AnyDoc>('indexed');
    await indexed.createIndex({ g: 1, v: -1, w: 1 });
    await indexed.createIndex({ tags: 1, g: 1 });
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const ids = Array.from({ length: 3000 }, (_, i) => i + 1).sort(() => next() - 0.5);
    const docs = ids.map((id) => ({
      _id: id,
      g: Math.floor(next() * 7),
      v: next() < 0.1 ? null : Math.floor(next() * 50),
      w: next() < 0.5 ? 'x' : ['y', 'z'][id % 2],
      tags: [id % 5, (id % 3) + 10],
    }));
    for (const coll of [plain, indexed]) {
      for (let i = 0; i < docs.length; i += 300) await coll.insertMany(docs.slice(i, i + 300).map((d) => ({ ...d })));
      await coll.updateMany({ g: 3, v: { $lt: 10 } }, { $set: { g: 9, tags: [99] } });
      await coll.updateMany({ w: 'z' }, { $inc: { v: 1 } });
      await coll.deleteMany({ g: 1, v: { $gt: 25 } });
    }
  });
  after(async () => {
    await server.stop();
  });

  it('counts, finds and pages the same', async () => {
    const filters = [
      {},
      { g: 2 },
      { g: 9 },
      { g: { $gte: 1, $lt: 4 }, v: { $gt: 20 } },
      { g: 5, v: null },
      { g: 0, v: { $lte: 30 }, w: 'x' },
      { tags: 99 },
      { tags: { $in: [1, 11] }, g: { $ne: 2 } },
    ];
    for (const filter of filters) {
      const label = JSON.stringify(filter);
      expect(await indexed.countDocuments(filter), label).to.equal(await plain.countDocuments(filter));
      for (const sort of [
        { g: 1, v: -1, w: 1, _id: 1 },
        { g: -1, v: 1, w: -1, _id: -1 },
        { tags: 1, g: 1, _id: 1 },
      ] as Sort[]) {
        const page = async (c: Collection<AnyDoc>) =>
          (await c.find(filter).sort(sort).skip(13).limit(40).toArray()).map((d) => d._id);
        expect(await page(indexed), `${label} ${JSON.stringify(sort)}`).to.deep.equal(await page(plain));
      }
    }
  });
});
