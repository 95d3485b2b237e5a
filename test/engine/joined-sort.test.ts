import { expect } from 'chai';
import { Random } from '../../scripts/fuzz/random.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// `$lookup` → `$addFields` of the joined field → `$sort` on it → window is how the service sorts on
// a related entry's field (`sort=author.name`); the engine sorts on keys computed from the memoized
// join and builds only the window's documents. The same stages with `{ $skip: 0 }` after the
// `$lookup` and before the `$sort` take the general path: both must answer the same documents in
// the same order.
describe('engine: a sort on a joined value', () => {
  let server: TestServer;
  const random = new Random(20261207);
  const rng = () => random.next();
  before(async () => {
    server = await startTestServer('joined-sort');
    const names = ['Ada', 'Bob', 'ada', 'Émile', 'Zoe', 'Bob', '', 'Ann'];
    const authors: AnyDoc[] = names.map((name, i) => ({ _id: i + 1, name, rank: i % 3 }));
    authors.push({ _id: 9, rank: 2 }, { _id: 10, name: null, rank: 1 }, { _id: 11, name: 7, rank: 0 });
    await server.db.collection<AnyDoc>('authors').insertMany(authors);
    const posts: AnyDoc[] = [];
    for (let id = 1; id <= 400; id++) {
      const pick = Math.floor(rng() * 14);
      // ids of authors, a dangling id, null and a missing field
      const post: AnyDoc = { _id: id, title: `t${Math.floor(rng() * 50)}`, views: Math.floor(rng() * 5) };
      if (pick < 11) post.author = pick + 1;
      else if (pick === 11) post.author = 99;
      else if (pick === 12) post.author = null;
      if (rng() < 0.3) post.seo = { score: Math.floor(rng() * 3) };
      posts.push(post);
    }
    await server.db.collection<AnyDoc>('posts').insertMany(posts);
  });
  after(async () => {
    await server.stop();
  });

  const letLookup = (as: string, field: string) => ({
    $lookup: {
      from: 'authors',
      let: { ref: '$author' },
      pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$ref'] } } }, { $project: { _id: 0, value: `$${field}` } }],
      as,
    },
  });
  const equalityLookup = (as: string) => ({
    $lookup: { from: 'authors', localField: 'author', foreignField: '_id', pipeline: [{ $project: { name: 1 } }], as },
  });
  const cases: Array<{ name: string; as: string; stages: AnyDoc[]; sort: AnyDoc }> = [
    {
      name: 'ascending on a joined string, ties by id',
      as: '__sort0',
      stages: [letLookup('__sort0', 'name'), { $addFields: { __sort0: { $arrayElemAt: ['$__sort0.value', 0] } } }],
      sort: { __sort0: 1, _id: 1 },
    },
    {
      name: 'descending, then by a field of the document',
      as: '__sort0',
      stages: [letLookup('__sort0', 'name'), { $addFields: { __sort0: { $arrayElemAt: ['$__sort0.value', 0] } } }],
      sort: { __sort0: -1, views: 1, _id: -1 },
    },
    {
      name: 'a joined number, then a dotted field',
      as: 'k',
      stages: [letLookup('k', 'rank'), { $set: { k: { $first: '$k.value' } } }],
      sort: { 'seo.score': -1, k: 1, _id: 1 },
    },
    {
      name: 'an equality join kept whole',
      as: 'a',
      stages: [equalityLookup('a'), { $addFields: { a: { $arrayElemAt: ['$a', 0] } } }],
      sort: { 'a.name': 1, _id: 1 },
    },
    {
      name: 'a joined array',
      as: 'a',
      stages: [equalityLookup('a'), { $addFields: { a: '$a.name' } }],
      sort: { a: -1, _id: 1 },
    },
  ];
  const windows: Array<AnyDoc[]> = [
    [{ $limit: 25 }],
    [{ $skip: 100 }, { $limit: 25 }],
    [{ $skip: 380 }, { $limit: 50 }],
    [{ $limit: 1 }],
  ];

  for (const { name, as, stages, sort } of cases) {
    it(`${name}: the same page as the general path`, async () => {
      const posts = server.db.collection<AnyDoc>('posts');
      for (const window of windows) {
        for (const cleanup of [[], [{ $project: { [as]: 0 } }]]) {
          const [lookup, add] = stages;
          const fast = await posts
            .aggregate([{ $match: { views: { $gte: 0 } } }, lookup, add, { $sort: sort }, ...window, ...cleanup])
            .toArray();
          const general = await posts
            .aggregate([
              { $match: { views: { $gte: 0 } } },
              lookup,
              { $skip: 0 },
              add,
              { $skip: 0 },
              { $sort: sort },
              ...window,
              ...cleanup,
            ])
            .toArray();
          expect(fast, JSON.stringify(window)).to.deep.equal(general);
          expect(fast.length).to.be.greaterThan(0);
        }
      }
    });
  }

  it('sorts missing, null and dangling joins first ascending, as the general path', async () => {
    const page = await server.db
      .collection<AnyDoc>('posts')
      .aggregate([
        letLookup('__sort0', 'name'),
        { $addFields: { __sort0: { $arrayElemAt: ['$__sort0.value', 0] } } },
        { $sort: { __sort0: 1, _id: 1 } },
        { $limit: 400 },
      ])
      .toArray();
    const firstNamed = page.findIndex((d) => d.__sort0 !== undefined && d.__sort0 !== null);
    expect(firstNamed).to.be.greaterThan(0);
    for (const d of page.slice(0, firstNamed)) expect([undefined, null, 9, 10, 99]).to.include(d.author ?? null);
    // a missing joined value leaves the field out, as `$addFields` does
    expect(
      page
        .filter((d) => d.author === 99 || d.author === undefined || d.author === null)
        .every((d) => !('__sort0' in d)),
    ).to.equal(true);
    const stored = await server.db.collection<AnyDoc>('authors').findOne({ _id: 1 });
    expect(stored).to.deep.equal({ _id: 1, name: 'Ada', rank: 0 });
  });
});

// `$addFields` of one field → `$sort` on it → window (an inverse relation's entries in their link
// order): keys computed without copying the documents; `{ $skip: 0 }` before the `$sort` takes
// the general path.
describe('engine: a sort on a computed value', () => {
  let server: TestServer;
  const random = new Random(7);
  const rng = () => random.next();
  before(async () => {
    server = await startTestServer('computed-sort');
    const posts: AnyDoc[] = [];
    for (let id = 1; id <= 300; id++) {
      const post: AnyDoc = { _id: id, views: Math.floor(rng() * 4), title: `t${Math.floor(rng() * 9)}` };
      const keys: AnyDoc = {};
      for (const tag of [1, 2, 3]) if (rng() < 0.5) keys[String(tag)] = rng() < 0.1 ? null : Math.floor(rng() * 20);
      if (rng() < 0.9) post.__order = { tags: keys };
      posts.push(post);
    }
    await server.db.collection<AnyDoc>('posts').insertMany(posts);
  });
  after(async () => {
    await server.stop();
  });

  const expressions: Record<string, unknown> = {
    'a field path': '$views',
    'a sum': { $add: ['$views', { $strLenCP: '$title' }] },
    'a missing value': '$nothing',
    'the key of a link': {
      $arrayElemAt: [
        {
          $map: {
            input: {
              $filter: {
                input: { $objectToArray: { $ifNull: ['$__order.tags', {}] } },
                as: 'key',
                cond: { $eq: ['$$key.k', '2'] },
              },
            },
            as: 'key',
            in: '$$key.v',
          },
        },
        0,
      ],
    },
  };
  for (const [name, expr] of Object.entries(expressions)) {
    it(`${name}: the same window as the general path`, async () => {
      const posts = server.db.collection<AnyDoc>('posts');
      for (const sort of [
        { k: 1, _id: 1 },
        { k: -1, views: 1, _id: -1 },
        { title: 1, k: 1, _id: 1 },
      ]) {
        for (const window of [[{ $limit: 5 }], [{ $skip: 40 }, { $limit: 20 }], [{ $skip: 290 }, { $limit: 30 }]]) {
          const fast = await posts.aggregate([{ $addFields: { k: expr } }, { $sort: sort }, ...window]).toArray();
          const general = await posts
            .aggregate([{ $addFields: { k: expr } }, { $skip: 0 }, { $sort: sort }, ...window])
            .toArray();
          expect(fast, JSON.stringify([sort, window])).to.deep.equal(general);
          expect(fast.length).to.be.greaterThan(0);
        }
      }
    });
  }
});
