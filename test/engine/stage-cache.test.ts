import { expect } from 'chai';
import { BSON } from 'bson';
import { decodeStage, stageCacheStats } from '../../src/engine/protocol/stage-cache.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// An aggregation's stages are decoded once per distinct bytes (src/engine/protocol/stage-cache.ts)
// and the same frozen object is handed to every command that sends them again: these tests pin
// down that nothing one command derives from a stage outlives it, and that the cache stays out of
// the way of what it does not handle.
describe('engine: aggregation stages decoded once', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('stage-cache');
    await server.db.collection<AnyDoc>('shelves').insertOne({ _id: 'top', label: 'Top shelf' });
    await server.db.collection<AnyDoc>('books').insertOne({ _id: 7, shelf: 'top' });
  });
  after(async () => {
    await server.stop();
  });

  const options = { promoteLongs: false, bsonRegExp: true } as const;

  it('hands out one deeply frozen stage for the same bytes, and decodes small ones each time', () => {
    const lookup = {
      $lookup: {
        from: 'categories',
        localField: 'category',
        foreignField: '_id',
        pipeline: [{ $project: { _id: 1, name: 1, description: 1, createdAt: 1, updatedAt: 1 } }],
        as: 'c',
      },
    };
    const before = { ...stageCacheStats };
    const first = decodeStage(BSON.serialize(lookup), options);
    const second = decodeStage(BSON.serialize(lookup), options);
    expect(first).to.deep.equal(lookup);
    expect(second).to.equal(first);
    expect(stageCacheStats.hits - before.hits).to.be.at.least(1);
    expect(Object.isFrozen(first)).to.equal(true);
    const pipeline = (first.$lookup as AnyDoc).pipeline as AnyDoc[];
    expect(Object.isFrozen(pipeline) && Object.isFrozen(pipeline[0]?.$project)).to.equal(true);
    expect(() => pipeline.push({ $limit: 1 })).to.throw(TypeError);

    const other = decodeStage(BSON.serialize({ ...lookup, $lookup: { ...lookup.$lookup, as: 'd' } }), options);
    expect(other).to.not.equal(first);
    const small = BSON.serialize({ $match: { _id: 1 } });
    const one = decodeStage(small, options);
    expect(decodeStage(small, options)).to.not.equal(one);
    expect(Object.isFrozen(one)).to.equal(false);
  });

  it('decodes a command whose variables or comment hold an array named pipeline as any other', async () => {
    const lookup = {
      $lookup: {
        from: 'shelves',
        let: { pipeline: '$shelf' },
        pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$pipeline'] } } }, { $project: { _id: 0, label: 1 } }],
        as: 'c',
      },
    };
    const books = server.db.collection<AnyDoc>('books');
    const withVariables = await books
      .aggregate([{ $match: { _id: 7 } }, lookup, { $project: { c: 1, v: '$$pipeline' } }], {
        let: { pipeline: [{ k: 'a' }, { k: 'b' }] },
      })
      .toArray();
    expect(withVariables).to.deep.equal([{ _id: 7, c: [{ label: 'Top shelf' }], v: [{ k: 'a' }, { k: 'b' }] }]);
    const withComment = await books
      .aggregate([{ $match: { _id: 7 } }, lookup, { $project: { c: 1 } }], { comment: { pipeline: [1, 2] } })
      .toArray();
    expect(withComment).to.deep.equal([{ _id: 7, c: [{ label: 'Top shelf' }] }]);
  });
});
