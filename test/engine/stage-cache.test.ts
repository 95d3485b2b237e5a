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
    await server.db.collection<AnyDoc>('categories').insertMany([
      { _id: 1, name: 'Tech' },
      { _id: 2, name: 'Food' },
    ]);
    await server.db.collection<AnyDoc>('posts').insertMany([
      { _id: 1, category: 1 },
      { _id: 2, category: 2 },
      { _id: 3, category: 1 },
    ]);
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

  it('answers a command sent again byte for byte with what the writes between them changed', async () => {
    if (!server.embedded) return;
    // a nested join is shared between the runs of its enclosing sub-pipeline within one command:
    // never into the next command, which sends the same stages
    const pipeline = [
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: 'posts',
          let: { cid: '$_id' },
          pipeline: [
            { $match: { $expr: { $eq: ['$category', '$$cid'] } } },
            { $sort: { _id: 1 } },
            {
              $lookup: {
                from: 'categories',
                localField: 'category',
                foreignField: '_id',
                pipeline: [{ $match: {} }, { $project: { _id: 0, name: 1 } }],
                as: 'c',
              },
            },
            { $project: { _id: 1, c: 1 } },
          ],
          as: 'posts',
        },
      },
    ];
    const run = () => server.db.collection<AnyDoc>('categories').aggregate(pipeline).toArray();
    expect((await run())[0]?.posts).to.deep.equal([
      { _id: 1, c: [{ name: 'Tech' }] },
      { _id: 3, c: [{ name: 'Tech' }] },
    ]);
    const hits = stageCacheStats.hits;
    await server.db.collection<AnyDoc>('categories').updateOne({ _id: 1 }, { $set: { name: 'Technology' } });
    await server.db.collection<AnyDoc>('posts').insertOne({ _id: 4, category: 1 });
    expect((await run())[0]?.posts).to.deep.equal([
      { _id: 1, c: [{ name: 'Technology' }] },
      { _id: 3, c: [{ name: 'Technology' }] },
      { _id: 4, c: [{ name: 'Technology' }] },
    ]);
    expect(stageCacheStats.hits).to.be.above(hits);
  });

  it('decodes a command whose variables or comment hold an array named pipeline as any other', async () => {
    const lookup = {
      $lookup: {
        from: 'categories',
        let: { pipeline: '$category' },
        pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$pipeline'] } } }, { $project: { _id: 0, name: 1 } }],
        as: 'c',
      },
    };
    const posts = server.db.collection<AnyDoc>('posts');
    const withVariables = await posts
      .aggregate([{ $match: { _id: 2 } }, lookup, { $project: { c: 1, v: '$$pipeline' } }], {
        let: { pipeline: [{ k: 'a' }, { k: 'b' }] },
      })
      .toArray();
    expect(withVariables).to.deep.equal([{ _id: 2, c: [{ name: 'Food' }], v: [{ k: 'a' }, { k: 'b' }] }]);
    const withComment = await posts
      .aggregate([{ $match: { _id: 2 } }, lookup, { $project: { c: 1 } }], { comment: { pipeline: [1, 2] } })
      .toArray();
    expect(withComment).to.deep.equal([{ _id: 2, c: [{ name: 'Food' }] }]);
  });
});
