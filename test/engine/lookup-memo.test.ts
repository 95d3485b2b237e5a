import { expect } from 'chai';
import { stageCacheStats } from '../../src/engine/protocol/stage-cache.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// The engine runs a `$lookup` sub-pipeline once per distinct join value within a stage and shares
// the result between outer documents; these tests pin down that the answers are unchanged by it.
describe('engine: $lookup sub-pipelines shared between outer documents', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('lookup-memo');
    await server.db.collection<AnyDoc>('categories').insertMany([
      { _id: 1, name: 'Tech' },
      { _id: 2, name: 'Food' },
    ]);
    await server.db.collection<AnyDoc>('posts').insertMany([
      { _id: 1, category: 1 },
      { _id: 2, category: 2 },
      { _id: 3, category: 1 },
      { _id: 4, category: null },
      { _id: 5, category: 1 },
    ]);
  });
  after(async () => {
    await server.stop();
  });

  const techFilter = [
    {
      $lookup: {
        from: 'categories',
        let: { ref: '$category' },
        pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$ref'] }, name: 'Tech' } }, { $project: { _id: 1 } }],
        as: 'f',
      },
    },
    { $match: { f: { $ne: [] } } },
    { $project: { f: 0 } },
  ];

  it('gives every outer document the answer for its own variables', async () => {
    const docs = await server.db.collection<AnyDoc>('posts').aggregate(techFilter).toArray();
    expect(docs).to.deep.equal([
      { _id: 1, category: 1 },
      { _id: 3, category: 1 },
      { _id: 5, category: 1 },
    ]);
  });

  it('keeps shared results apart when a later stage changes one of them', async () => {
    const docs = await server.db
      .collection<AnyDoc>('posts')
      .aggregate([
        {
          $lookup: {
            from: 'categories',
            localField: 'category',
            foreignField: '_id',
            pipeline: [{ $project: { name: 1 } }],
            as: 'c',
          },
        },
        {
          $set: {
            c: { $map: { input: '$c', as: 'x', in: { name: { $concat: ['$$x.name', '-', { $toString: '$_id' }] } } } },
          },
        },
      ])
      .toArray();
    expect(docs.map((d) => d.c)).to.deep.equal([
      [{ name: 'Tech-1' }],
      [{ name: 'Food-2' }],
      [{ name: 'Tech-3' }],
      [],
      [{ name: 'Tech-5' }],
    ]);
    const stored = await server.db.collection<AnyDoc>('categories').find().toArray();
    expect(stored).to.deep.equal([
      { _id: 1, name: 'Tech' },
      { _id: 2, name: 'Food' },
    ]);
  });

  it('never changes stored documents through an exclusion $project', async () => {
    await server.db
      .collection<AnyDoc>('posts')
      .aggregate([{ $project: { category: 0 } }, { $set: { extra: 1 } }])
      .toArray();
    expect(await server.db.collection<AnyDoc>('posts').findOne({ _id: 1 })).to.deep.equal({ _id: 1, category: 1 });
  });

  it('runs $rand sub-pipelines for every outer document', async () => {
    const docs = await server.db
      .collection<AnyDoc>('posts')
      .aggregate([
        {
          $lookup: {
            from: 'categories',
            localField: 'category',
            foreignField: '_id',
            pipeline: [{ $project: { r: { $rand: {} } } }],
            as: 'c',
          },
        },
        { $match: { category: 1 } },
      ])
      .toArray();
    const values = new Set(docs.map((d) => (d.c as Array<{ r: number }>)[0]?.r));
    expect(values.size).to.equal(3);
  });
  // a `$lookup` inside another's sub-pipeline runs once per outer document of that one; its
  // results are kept for the whole command unless it reads a variable of the enclosing stage
  const postsOfCategory = (inner: AnyDoc[]) => [
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
              let: { ref: '$category' },
              pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$ref'] } } }, ...inner],
              as: 'c',
            },
          },
          { $project: { c: 1 } },
        ],
        as: 'posts',
      },
    },
  ];

  it('shares a nested join between runs of the enclosing sub-pipeline', async () => {
    const docs = await server.db
      .collection<AnyDoc>('categories')
      .aggregate(postsOfCategory([{ $project: { _id: 0, name: 1 } }]))
      .toArray();
    expect(docs).to.deep.equal([
      {
        _id: 1,
        name: 'Tech',
        posts: [
          { _id: 1, c: [{ name: 'Tech' }] },
          { _id: 3, c: [{ name: 'Tech' }] },
          { _id: 5, c: [{ name: 'Tech' }] },
        ],
      },
      { _id: 2, name: 'Food', posts: [{ _id: 2, c: [{ name: 'Food' }] }] },
    ]);
  });

  it('runs a nested join again for each value of an enclosing variable it reads', async () => {
    // every post joins its own category, whose answer names the enclosing category ($$cid)
    const docs = await server.db
      .collection<AnyDoc>('categories')
      .aggregate([
        ...postsOfCategory([{ $project: { _id: 0, tag: { $concat: ['$name', '/', { $toString: '$$cid' }] } } }]),
        { $project: { tags: '$posts.c.tag' } },
      ])
      .toArray();
    expect(docs).to.deep.equal([
      { _id: 1, tags: [['Tech/1'], ['Tech/1'], ['Tech/1']] },
      { _id: 2, tags: [['Food/2']] },
    ]);
    const crossed = await server.db
      .collection<AnyDoc>('categories')
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: 'posts',
            let: { cid: '$_id' },
            pipeline: [
              { $match: { category: { $ne: null } } },
              { $sort: { _id: 1 } },
              {
                $lookup: {
                  from: 'categories',
                  let: { ref: '$category' },
                  pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$_id', '$$ref'] }, { $eq: ['$_id', '$$cid'] }] } } }],
                  as: 'same',
                },
              },
              { $project: { same: { $size: '$same' } } },
            ],
            as: 'posts',
          },
        },
        { $project: { same: '$posts.same' } },
      ])
      .toArray();
    expect(crossed).to.deep.equal([
      { _id: 1, same: [1, 0, 1, 1] },
      { _id: 2, same: [0, 1, 0, 0] },
    ]);
  });

  it('answers a command sent again byte for byte with what the writes between them changed', async () => {
    // a nested join is shared between the runs of its enclosing sub-pipeline within one command:
    // never into the next command, which sends the same stages
    const pipeline = postsOfCategory([{ $project: { _id: 0, name: 1 } }]);
    const run = () => server.db.collection<AnyDoc>('categories').aggregate(pipeline).toArray();
    expect((await run())[0]?.posts).to.deep.equal([
      { _id: 1, c: [{ name: 'Tech' }] },
      { _id: 3, c: [{ name: 'Tech' }] },
      { _id: 5, c: [{ name: 'Tech' }] },
    ]);
    const hits = stageCacheStats.hits;
    await server.db.collection<AnyDoc>('categories').updateOne({ _id: 1 }, { $set: { name: 'Technology' } });
    await server.db.collection<AnyDoc>('posts').insertOne({ _id: 6, category: 1 });
    expect((await run())[0]?.posts).to.deep.equal([
      { _id: 1, c: [{ name: 'Technology' }] },
      { _id: 3, c: [{ name: 'Technology' }] },
      { _id: 5, c: [{ name: 'Technology' }] },
      { _id: 6, c: [{ name: 'Technology' }] },
    ]);
    if (server.embedded) expect(stageCacheStats.hits).to.be.above(hits);
  });
});
