import { expect } from 'chai';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// The engine evaluates some expression shapes directly rather than through its interpreter
// (src/engine/query/expression-shortcuts.ts). Each is compared here with the same expression
// spelled so that the shortcut does not apply (`{ $literal: 0 }` for the index `0`): every
// document, every stored shape, the same answer, errors included.
describe('engine: expressions evaluated without the interpreter', () => {
  let server: TestServer;
  const docs: AnyDoc[] = [
    { _id: 1, __order: { tags: { '2': 5, '6': 1 } } },
    { _id: 2, __order: { tags: { '2': null } } },
    { _id: 3, __order: { tags: {} } },
    { _id: 4, __order: { tags: null } },
    { _id: 5, __order: {} },
    { _id: 6 },
    { _id: 7, __order: null },
    { _id: 8, __order: { tags: { '6': 2, constructor: 3 } } },
    { _id: 9, __order: { tags: { '2': 'x', '20': 4 } } },
    { _id: 10, __order: { tags: { '2': { nested: [1, 2] } } } },
    { _id: 11, __order: { tags: { '2': 1.5 } }, tags: [2] },
    { _id: 12, __order: { tags: { '2': -3 } } },
  ];
  const broken: AnyDoc[] = [
    { _id: 20, __order: { tags: 7 } },
    { _id: 21, __order: { tags: 'text' } },
    { _id: 22, __order: { tags: [{ k: '2', v: 1 }] } },
    { _id: 23, __order: [{ tags: { '2': 1 } }, { tags: { '2': 2 } }] },
    { _id: 24, __order: { tags: new Date(0) } },
  ];
  before(async () => {
    server = await startTestServer('expression-shortcuts');
    await server.db.collection<AnyDoc>('articles').insertMany(docs);
    await server.db.collection<AnyDoc>('broken').insertMany(broken);
    await server.db.collection<AnyDoc>('tags').insertMany([{ _id: 2 }, { _id: 6 }, { _id: 20 }]);
  });
  after(async () => {
    await server.stop();
  });

  const valueAtKey = (key: unknown, index: unknown) => ({
    $arrayElemAt: [
      {
        $map: {
          input: {
            $filter: {
              input: { $objectToArray: { $ifNull: ['$__order.tags', {}] } },
              as: 'key',
              cond: { $eq: ['$$key.k', key] },
            },
          },
          as: 'key',
          in: '$$key.v',
        },
      },
      index,
    ],
  });

  const outcome = async (collection: string, pipeline: AnyDoc[]) => {
    try {
      return { docs: await server.db.collection<AnyDoc>(collection).aggregate(pipeline).toArray() };
    } catch (err) {
      const { code, message } = err as { code?: number; message: string };
      return { code, message };
    }
  };

  for (const key of ['2', '6', 'constructor', '7', { $toString: 20 }, { $concat: ['', '2'] }]) {
    it(`the value at key ${JSON.stringify(key)} of every stored shape`, async () => {
      const short = await outcome('articles', [{ $addFields: { p: valueAtKey(key, 0) } }, { $sort: { _id: 1 } }]);
      const long = await outcome('articles', [
        { $addFields: { p: valueAtKey(key, { $literal: 0 }) } },
        { $sort: { _id: 1 } },
      ]);
      expect(short).to.deep.equal(long);
      expect(short.docs?.length).to.equal(docs.length);
    });
  }

  it('the value at a key given by a variable, sorted with a window, inside a $lookup', async () => {
    const perTag = (index: unknown) => [
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: 'articles',
          let: { owner: '$_id' },
          pipeline: [
            { $addFields: { __position: valueAtKey({ $toString: '$$owner' }, index) } },
            { $sort: { __position: 1, _id: 1 } },
            { $limit: 4 },
            { $project: { _id: 1, __position: 1 } },
          ],
          as: 'articles',
        },
      },
    ];
    const short = await outcome('tags', perTag(0));
    expect(short).to.deep.equal(await outcome('tags', perTag({ $literal: 0 })));
    // tag 2: an explicit null first, then the entries without a key (ties by id)
    expect((short.docs?.[0]?.articles as AnyDoc[]).map((d) => d._id)).to.deep.equal([2, 3, 4, 5]);
  });

  it('stored shapes $objectToArray refuses: the same error', async () => {
    for (const doc of broken) {
      const pipeline = (index: unknown) => [
        { $match: { _id: doc._id } },
        { $addFields: { p: valueAtKey('2', index) } },
      ];
      const short = await outcome('broken', pipeline(0));
      const long = await outcome('broken', pipeline({ $literal: 0 }));
      expect(short, JSON.stringify(doc)).to.deep.equal(long);
      expect(short.code, JSON.stringify(doc)).to.be.a('number');
    }
  });
});
