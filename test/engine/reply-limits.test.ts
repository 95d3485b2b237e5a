import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { startTestServer, type AnyDoc, type TestServer } from './helpers/server.js';

const MB = 1024 * 1024;

describe('engine: 16 MB reply limits', function () {
  this.timeout(60_000);
  let server: TestServer;
  let big: Collection<AnyDoc>;
  before(async () => {
    server = await startTestServer('limits');
    big = server.db.collection<AnyDoc>('big');
    // 40 documents of about 1 MB each: 40 MB in all
    for (let i = 0; i < 40; i += 5)
      await big.insertMany(Array.from({ length: 5 }, (_, k) => ({ _id: i + k, text: 'x'.repeat(MB) })));
  });
  after(() => server.stop());

  it('cuts find batches before the document that would pass 16 MB, and getMore goes on', async () => {
    const first = (await server.db.command({ find: 'big', batchSize: 1000 })) as {
      cursor: { firstBatch: Document[]; id: unknown };
    };
    // each document is a little over 1 MiB: 15 fit under 16 MiB, 16 do not
    expect(first.cursor.firstBatch.map((d) => d._id)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i));
    const next = (await server.db.command({ getMore: first.cursor.id, collection: 'big', batchSize: 1000 })) as {
      cursor: { nextBatch: Document[] };
    };
    expect(next.cursor.nextBatch.map((d) => d._id)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 15));
    const all = await big.find({}, { batchSize: 1000 }).toArray();
    expect(all.map((d) => d._id)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i));
  });

  it('cuts aggregate batches the same way', async () => {
    const first = (await server.db.command({ aggregate: 'big', pipeline: [], cursor: { batchSize: 1000 } })) as {
      cursor: { firstBatch: Document[] };
    };
    expect(first.cursor.firstBatch).to.have.length(15);
    expect(await big.aggregate([{ $project: { _id: 1 } }]).toArray()).to.have.length(40);
  });

  it('a result document over 16 MB is BSONObjectTooLarge (10334): the others still answer', async () => {
    const owners = server.db.collection<AnyDoc>('owners');
    await owners.insertMany([
      { _id: 1, kind: 'all' },
      { _id: 2, kind: 'few' },
    ]);
    const err = await owners
      .aggregate([{ $lookup: { from: 'big', pipeline: [], as: 'everything' } }])
      .toArray()
      .then(
        () => undefined,
        (e: { code?: number; codeName?: string }) => e,
      );
    expect(err?.code).to.equal(10334);
    expect(err?.codeName).to.equal('BSONObjectTooLarge');
    const few = await owners
      .aggregate([{ $match: { _id: 2 } }, { $lookup: { from: 'big', pipeline: [{ $limit: 3 }], as: 'three' } }])
      .toArray();
    expect(few[0]?.three).to.have.length(3);
  });
});
