import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: aggregation as the service sends it', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('aggregate');
    await server.db.collection<AnyDoc>('authors').insertMany([
      { _id: 1, name: 'Ann', country: 10 },
      { _id: 2, name: 'Bob', country: 11 },
      { _id: 3, name: 'Çelik', country: 10 },
    ]);
    await server.db.collection<AnyDoc>('countries').insertMany([
      { _id: 10, code: 'fr' },
      { _id: 11, code: 'de' },
    ]);
    await server.db.collection<AnyDoc>('articles').insertMany([
      { _id: 1, title: 'Élan vital', author: 1, tags: [1, 2], views: 5, publishedAt: new Date('2024-01-02') },
      { _id: 2, title: 'élan second', author: 2, tags: [2], views: 50, publishedAt: null },
      { _id: 3, title: 'Zebra', author: 1, tags: [], views: 7 },
      { _id: 4, title: 'apple', author: 3, tags: [3, 1], views: 5, publishedAt: new Date('2024-01-01') },
    ]);
    await server.db.collection<AnyDoc>('tags').insertMany([
      { _id: 1, label: 'x' },
      { _id: 2, label: 'y' },
      { _id: 3, label: 'z' },
    ]);
    await server.db.collection<AnyDoc>('articles').createIndex({ author: 1 });
  });
  after(async () => {
    await server.stop();
  });

  const ids = (docs: Array<{ _id?: unknown }>) => docs.map((d) => d._id);

  it('$match with $expr, case-insensitive Unicode $regex, $in, $nin, $not, $elemMatch, $exists, $type', async () => {
    const a = server.db.collection<AnyDoc>('articles');
    expect(ids(await a.aggregate([{ $match: { title: { $regex: '^élan', $options: 'i' } } }]).toArray())).to.deep.equal(
      [1, 2],
    );
    expect(ids(await a.aggregate([{ $match: { $expr: { $gt: ['$views', 6] } } }]).toArray())).to.deep.equal([2, 3]);
    expect(ids(await a.aggregate([{ $match: { tags: { $in: [3] }, author: { $nin: [1] } } }]).toArray())).to.deep.equal(
      [4],
    );
    expect(ids(await a.aggregate([{ $match: { views: { $not: { $gt: 6 } } } }]).toArray())).to.deep.equal([1, 4]);
    expect(ids(await a.aggregate([{ $match: { tags: { $elemMatch: { $gte: 3 } } } }]).toArray())).to.deep.equal([4]);
    expect(ids(await a.aggregate([{ $match: { publishedAt: { $exists: false } } }]).toArray())).to.deep.equal([3]);
    expect(ids(await a.aggregate([{ $match: { publishedAt: { $type: 'date' } } }]).toArray())).to.deep.equal([1, 4]);
    expect(ids(await a.aggregate([{ $match: { publishedAt: null } }]).toArray())).to.deep.equal([2, 3]);
  });

  it('$sort on several keys with null and missing first, then $skip and $limit', async () => {
    const a = server.db.collection<AnyDoc>('articles');
    const out = await a.aggregate([{ $sort: { publishedAt: 1, _id: -1 } }, { $skip: 1 }, { $limit: 2 }]).toArray();
    expect(ids(out)).to.deep.equal([2, 4]);
    const byViews = await a.aggregate([{ $sort: { views: -1, title: 1 } }, { $limit: 3 }]).toArray();
    expect(ids(byViews)).to.deep.equal([2, 3, 4]);
  });

  it('$lookup with localField/foreignField, to-one and to-many', async () => {
    const out = await server.db
      .collection<AnyDoc>('articles')
      .aggregate([
        { $match: { _id: 1 } },
        { $lookup: { from: 'authors', localField: 'author', foreignField: '_id', as: 'author' } },
        { $lookup: { from: 'tags', localField: 'tags', foreignField: '_id', as: 'tags' } },
        { $set: { author: { $first: '$author' } } },
      ])
      .toArray();
    expect(out[0].author).to.deep.equal({ _id: 1, name: 'Ann', country: 10 });
    expect(out[0].tags.map((t: { label: string }) => t.label).sort()).to.deep.equal(['x', 'y']);
  });

  it('$lookup with let + pipeline nested three levels deep', async () => {
    const out = await server.db
      .collection<AnyDoc>('articles')
      .aggregate([
        { $match: { _id: { $in: [1, 4] } } },
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: 'authors',
            let: { id: '$author' },
            as: 'author',
            pipeline: [
              { $match: { $expr: { $eq: ['$_id', '$$id'] } } },
              {
                $lookup: {
                  from: 'articles',
                  let: { aid: '$_id' },
                  as: 'articles',
                  pipeline: [
                    { $match: { $expr: { $eq: ['$author', '$$aid'] } } },
                    {
                      $lookup: {
                        from: 'tags',
                        let: { ids: '$tags' },
                        as: 'tags',
                        pipeline: [
                          { $match: { $expr: { $in: ['$_id', '$$ids'] } } },
                          { $project: { _id: 0, label: 1 } },
                        ],
                      },
                    },
                    { $project: { _id: 1, tags: 1 } },
                    { $sort: { _id: 1 } },
                  ],
                },
              },
              { $lookup: { from: 'countries', localField: 'country', foreignField: '_id', as: 'country' } },
            ],
          },
        },
        { $set: { author: { $arrayElemAt: ['$author', 0] } } },
      ])
      .toArray();
    expect(out[0].author.name).to.equal('Ann');
    expect(out[0].author.articles.map((a: { _id: number }) => a._id)).to.deep.equal([1, 3]);
    expect(out[0].author.articles[0].tags.map((t: { label: string }) => t.label).sort()).to.deep.equal(['x', 'y']);
    expect(out[0].author.articles[1].tags).to.deep.equal([]);
    expect(out[0].author.country).to.deep.equal([{ _id: 10, code: 'fr' }]);
    expect(out[1].author.name).to.equal('Çelik');
  });

  it('keeps $lookup let variables visible in every stage of the inner pipeline (regression: "Use of undefined variable")', async () => {
    const out = await server.db
      .collection<AnyDoc>('articles')
      .aggregate([
        { $match: { _id: 4 } },
        {
          $lookup: {
            from: 'tags',
            let: { ids: '$tags' },
            as: 'tags',
            pipeline: [
              { $match: { $expr: { $in: ['$_id', '$$ids'] } } },
              { $addFields: { __order: { $indexOfArray: ['$$ids', '$_id'] } } },
              { $sort: { __order: 1 } },
              { $limit: 1 },
              { $project: { _id: 1, label: 1, pos: { $indexOfArray: ['$$ids', '$_id'] } } },
            ],
          },
        },
      ])
      .toArray();
    expect(out[0].tags).to.deep.equal([{ _id: 3, label: 'z', pos: 0 }]);
  });

  it('$project / $addFields with $map, $filter, $indexOfArray, $size, $slice, $cond, $ifNull, $sortArray', async () => {
    const out = await server.db
      .collection<AnyDoc>('articles')
      .aggregate([
        { $match: { _id: 4 } },
        {
          $project: {
            _id: 0,
            doubled: { $map: { input: '$tags', as: 't', in: { $multiply: ['$$t', 2] } } },
            big: { $filter: { input: '$tags', as: 't', cond: { $gte: ['$$t', 2] } } },
            where: { $indexOfArray: ['$tags', 1] },
            n: { $size: '$tags' },
            firstOne: { $slice: ['$tags', 1] },
            kind: { $cond: [{ $gt: ['$views', 6] }, 'popular', 'quiet'] },
            date: { $ifNull: ['$missing', 'none'] },
            sorted: { $sortArray: { input: '$tags', sortBy: 1 } },
          },
        },
        { $addFields: { total: { $sum: '$doubled' } } },
      ])
      .toArray();
    expect(out).to.deep.equal([
      {
        doubled: [6, 2],
        big: [3],
        where: 1,
        n: 2,
        firstOne: [3],
        kind: 'quiet',
        date: 'none',
        sorted: [1, 3],
        total: 8,
      },
    ]);
  });

  it('$unwind, $group, $count and $facet', async () => {
    const a = server.db.collection<AnyDoc>('articles');
    const grouped = await a
      .aggregate([{ $unwind: '$tags' }, { $group: { _id: '$tags', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(grouped).to.deep.equal([
      { _id: 1, n: 2 },
      { _id: 2, n: 2 },
      { _id: 3, n: 1 },
    ]);
    expect(await a.aggregate([{ $match: { views: 5 } }, { $count: 'total' }]).toArray()).to.deep.equal([{ total: 2 }]);
    const facet = await a
      .aggregate([
        {
          $facet: {
            page: [{ $sort: { _id: 1 } }, { $limit: 2 }, { $project: { _id: 1 } }],
            meta: [{ $count: 'total' }],
          },
        },
      ])
      .toArray();
    expect(facet).to.deep.equal([{ page: [{ _id: 1 }, { _id: 2 }], meta: [{ total: 4 }] }]);
  });

  it('answers an unknown stage with 40324 and a bad $in with 40081', async () => {
    const a = server.db.collection<AnyDoc>('articles');
    const unknown = await a
      .aggregate([{ $frobnicate: {} }])
      .toArray()
      .catch((e: unknown) => e);
    expect((unknown as MongoServerError).code).to.equal(40324);
    const badIn = await a
      .aggregate([{ $match: { $expr: { $in: ['$_id', '$nothing'] } } }])
      .toArray()
      .catch((e: unknown) => e);
    expect((badIn as MongoServerError).code).to.equal(40081);
  });

  it('returns aggregation results across several batches', async () => {
    const c = server.db.collection<AnyDoc>('agg_many');
    await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i })));
    const all = await c.aggregate([{ $sort: { _id: -1 } }], { batchSize: 50 }).toArray();
    expect(all).to.have.length(300);
    expect(all[0]._id).to.equal(299);
  });
});
