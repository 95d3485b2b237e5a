import { expect } from 'chai';
import { Decimal128, Double, Long } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// Two shapes of the service's populate joins are answered without running the general machinery
// (src/engine/query/lookup.ts, fast-filter.ts): an equality `$lookup` whose sub-pipeline is only
// `$project`s, and a `$expr` comparison of a field with a variable or a literal. Each is compared
// here with the same request spelled so that the shortcut does not apply: every stored shape of
// the values, the same documents in the same order.
describe('engine: join shortcuts answer as the general path', () => {
  let server: TestServer;
  const authors: AnyDoc[] = [
    { _id: 1, name: 'int id', group: 'g1', rank: 3, secret: 'x' },
    { _id: 2, name: 'second', group: 'g1', rank: 3.5, nested: { a: 1 } },
    { _id: 'a', name: 'string id', group: 'g2', rank: '3' },
    { _id: 4, name: 'null group', group: null, rank: null },
    { _id: 5, name: 'no group' },
    { _id: 6, name: 'array group', group: ['g1', 'g3'], rank: [3, 4] },
    { _id: 7, name: 'doc group', group: { k: 'g1' }, rank: { v: 3 } },
    { _id: 8, name: 'date rank', group: 'g3', rank: new Date(5) },
    { _id: 9, name: 'long rank', group: 'g3', rank: Long.fromNumber(3) },
    { _id: 10, name: 'decimal rank', group: 'g1', rank: Decimal128.fromString('3') },
    { _id: 11, name: 'bool rank', group: 'g2', rank: true },
  ];
  const articles: AnyDoc[] = [
    { _id: 100, author: 1, authors: [2, 'a', 5], group: 'g1', rank: 3 },
    { _id: 101, author: 'a', authors: [], group: 'g2', rank: '3' },
    { _id: 102, author: null, authors: [null], group: null, rank: null },
    { _id: 103, authors: [4, 4, 99], rank: 3.5 },
    { _id: 104, author: [1, 2], authors: [[1, 2]], group: ['g1', 'g2'], rank: new Date(5) },
    { _id: 105, author: { k: 1 }, authors: [{ k: 1 }], group: { k: 'g1' }, rank: true },
    { _id: 106, author: 99, authors: [6, 7, 8, 9, 10, 11], group: 'g3', rank: Long.fromNumber(3) },
    // ids of other numeric types, and the same id twice
    { _id: 107, author: Long.fromNumber(2), authors: [new Double(1), Decimal128.fromString('2'), 2, 1], rank: 2 },
  ];
  before(async () => {
    server = await startTestServer('join-shortcuts');
    await server.db.collection<AnyDoc>('authors').insertMany(authors);
    await server.db.collection<AnyDoc>('articles').insertMany(articles);
  });
  after(async () => {
    await server.stop();
  });

  const outcome = async (pipeline: AnyDoc[]) => {
    try {
      const docs = await server.db.collection<AnyDoc>('articles').aggregate(pipeline).toArray();
      // a real MongoDB does not promise the order of a join's documents: compare them by id there
      if (!server.embedded) for (const d of docs) for (const v of Object.values(d)) if (Array.isArray(v)) v.sort(byId);
      return { docs };
    } catch (err) {
      const { code } = err as { code?: number };
      return { code };
    }
  };
  const byId = (x: AnyDoc, y: AnyDoc) => String(x?._id).localeCompare(String(y?._id));

  const projections: AnyDoc[][] = [
    [{ $project: { _id: 1, name: 1 } }],
    [{ $project: { name: 1, nested: 1 } }],
    [{ $project: { secret: 0 } }],
    [{ $project: { _id: 0, name: 1 } }, { $project: { name: 1 } }],
    [],
  ];
  for (const [i, pipeline] of projections.entries()) {
    for (const localField of ['author', 'authors', 'group', 'missing']) {
      it(`an equality join on ${localField} with projection pipeline #${i}`, async () => {
        const join = (sub: AnyDoc[]) => [
          { $sort: { _id: 1 } },
          {
            $lookup: {
              from: 'authors',
              localField,
              foreignField: localField === 'group' ? 'group' : '_id',
              pipeline: sub,
              as: 'joined',
            },
          },
          { $project: { joined: 1 } },
        ];
        const short = await outcome(join(pipeline));
        // a leading empty $match keeps the sub-pipeline on the general path
        const long = await outcome(join([{ $match: {} }, ...pipeline]));
        expect(short).to.deep.equal(long);
        expect(short.docs?.length).to.equal(articles.length);
      });
    }
  }

  // a sub-pipeline of $match and $project stages runs on the equality's documents; a $skip: 0 keeps
  // the same request on the path that plans the foreign side's access with the equality first
  const filters: AnyDoc[][] = [
    [{ $match: { name: { $ne: 'second' } } }, { $project: { name: 1 } }],
    [{ $match: { $expr: { $ne: ['$_id', '$$self'] } } }],
    [
      { $match: { $and: [{ $expr: { $gt: ['$rank', '$$rank'] } }, { group: { $ne: null } }] } },
      { $project: { _id: 1 } },
    ],
  ];
  for (const [i, pipeline] of filters.entries()) {
    for (const localField of ['author', 'authors', 'group', 'missing']) {
      it(`an equality join on ${localField} whose sub-pipeline #${i} filters and projects`, async () => {
        const join = (sub: AnyDoc[]) => [
          { $sort: { _id: 1 } },
          {
            $lookup: {
              from: 'authors',
              localField,
              foreignField: localField === 'group' ? 'group' : '_id',
              let: { self: '$_id', rank: '$rank' },
              pipeline: sub,
              as: 'joined',
            },
          },
          { $project: { joined: 1 } },
        ];
        const short = await outcome(join(pipeline));
        expect(short).to.deep.equal(await outcome(join([...pipeline, { $skip: 0 }])));
        expect(short.docs?.length).to.equal(articles.length);
      });
    }
  }

  for (const op of ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']) {
    it(`${op} between a field and a let variable, both orders`, async () => {
      const join = (cond: AnyDoc) => [
        { $sort: { _id: 1 } },
        {
          $lookup: {
            from: 'authors',
            let: { rank: '$rank', self: '$_id' },
            pipeline: [{ $match: { $expr: cond } }, { $sort: { _id: 1 } }, { $project: { _id: 1 } }],
            as: 'joined',
          },
        },
        { $project: { joined: 1 } },
      ];
      for (const args of [
        ['$rank', '$$rank'],
        ['$$rank', '$rank'],
      ]) {
        const short = await outcome(join({ [op]: args }));
        const long = await outcome(join({ $and: [{ [op]: args }] }));
        expect(short, JSON.stringify(args)).to.deep.equal(long);
        expect(short.docs?.length).to.equal(articles.length);
      }
    });

    for (const literal of [3, 3.5, '3', 'g1', true, new Date(5), null]) {
      it(`${op} between a field and the literal ${JSON.stringify(literal)}`, async () => {
        const match = (expr: AnyDoc) => [{ $match: expr }, { $sort: { _id: 1 } }, { $project: { _id: 1 } }];
        const short = await outcome(match({ $expr: { [op]: ['$rank', literal] } }));
        const long = await outcome(match({ $expr: { $and: [{ [op]: ['$rank', literal] }] } }));
        expect(short).to.deep.equal(long);
      });
    }
  }

  it("a localizations join: the group's other entries, through the variable of the entry's id", async () => {
    const join = (expr: AnyDoc) => [
      { $match: { _id: { $in: [1, 2, 6, 10] } } },
      {
        $lookup: {
          from: 'authors',
          localField: 'group',
          foreignField: 'group',
          let: { self: '$_id' },
          pipeline: [{ $match: { $and: [expr, { name: { $ne: null } }] } }, { $project: { _id: 1 } }],
          as: 'others',
        },
      },
    ];
    const all = async (expr: AnyDoc) => {
      const docs = await server.db.collection<AnyDoc>('authors').aggregate(join(expr)).toArray();
      return docs.map((d) => [d._id, (d.others as AnyDoc[]).map((o) => o._id).sort()]);
    };
    const short = await all({ $expr: { $ne: ['$_id', '$$self'] } });
    expect(short).to.deep.equal(await all({ $expr: { $and: [{ $ne: ['$_id', '$$self'] }] } }));
    expect(short).to.deep.equal([
      [1, [10, 2, 6]],
      [2, [1, 10, 6]],
      [6, [1, 10, 2, 8, 9]],
      [10, [1, 2, 6]],
    ]);
  });
});
