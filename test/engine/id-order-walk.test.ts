import { expect } from 'chai';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// `$match` + `$sort: {_id}` + `$skip`/`$limit` stops early when ids were inserted in ascending
// order; the answers must be the same as a full sort, in either insertion order.
describe('engine: paging on _id', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('id-order');
    const ascending = Array.from({ length: 50 }, (_, i) => ({ _id: i + 1, even: (i + 1) % 2 === 0 }));
    await server.db.collection<AnyDoc>('ascending').insertMany(ascending);
    await server.db
      .collection<AnyDoc>('shuffled')
      .insertMany([...ascending].sort((a, b) => ((a._id * 37) % 50) - ((b._id * 37) % 50)));
  });
  after(async () => {
    await server.stop();
  });

  for (const name of ['ascending', 'shuffled']) {
    it(`${name} insertion: pages in both directions match a full sort`, async () => {
      const page = (direction: 1 | -1, skip: number, limit: number) =>
        server.db
          .collection<AnyDoc>(name)
          .aggregate([{ $match: { even: true } }, { $sort: { _id: direction } }, { $skip: skip }, { $limit: limit }])
          .toArray();
      expect((await page(1, 0, 3)).map((d) => d._id)).to.deep.equal([2, 4, 6]);
      expect((await page(1, 23, 5)).map((d) => d._id)).to.deep.equal([48, 50]);
      expect((await page(-1, 1, 3)).map((d) => d._id)).to.deep.equal([48, 46, 44]);
    });
  }

  it('notices an out-of-order insert after ascending ones', async () => {
    const c = server.db.collection<AnyDoc>('late');
    await c.insertMany([
      { _id: 5, even: false },
      { _id: 7, even: false },
      { _id: 6, even: true },
      { _id: 1, even: false },
    ]);
    const docs = await c.aggregate([{ $match: {} }, { $sort: { _id: 1 } }, { $limit: 2 }]).toArray();
    expect(docs.map((d) => d._id)).to.deep.equal([1, 5]);
  });
});

describe('engine: adjacent $match stages', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('match-coalesce');
    await server.db
      .collection<AnyDoc>('c')
      .insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i + 1, a: i % 2, b: i % 3 })));
  });
  after(async () => {
    await server.stop();
  });

  it('filter as one conjunction, also before a paged sort on _id', async () => {
    const docs = await server.db
      .collection<AnyDoc>('c')
      .aggregate([
        { $match: { a: 0 } },
        { $match: { b: 0 } },
        { $match: {} },
        { $sort: { _id: -1 } },
        { $skip: 1 },
        { $limit: 2 },
      ])
      .toArray();
    expect(docs.map((d) => d._id)).to.deep.equal([13, 7]); // a = 0 and b = 0: ids 1, 7, 13, 19
  });
});
