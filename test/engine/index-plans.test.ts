import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { type AnyDoc, examined, startTestServer, type TestServer } from './helpers/server.js';

// The planner answers from index ranges (counts without reading documents, ordered walks for
// sorted pages); a collection without indexes answers the same filters by reading every
// document. Both must give the same answers on generated data.

function prng(seed: number): { next: () => number; int: (lo: number, hi: number) => number } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)) };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'Beta', 'epsilon', '', 'Émile Zola', 'STRASSE', 'straße', 'a.b*c'];

function makeDocs(n: number): AnyDoc[] {
  const r = prng(7);
  const maybe = <T>(value: T, missing = 0.1, nul = 0.05): T | null | undefined => {
    const x = r.next();
    return x < missing ? undefined : x < missing + nul ? null : value;
  };
  const docs: AnyDoc[] = [];
  for (let i = 1; i <= n; i++) {
    const doc: AnyDoc = { _id: i };
    const set = (field: string, value: unknown) => {
      if (value !== undefined) doc[field] = value;
    };
    set('a', maybe(r.int(0, 9)));
    set('b', maybe(WORDS[r.int(0, WORDS.length - 1)]));
    set('c', maybe(r.int(0, 1000) / 10));
    set('d', maybe(new Date(Date.UTC(2020, 0, r.int(1, 60)))));
    const tagCount = r.int(0, 3);
    set('tags', r.next() < 0.15 ? maybe(r.int(0, 5), 0.5, 0.2) : Array.from({ length: tagCount }, () => r.int(0, 5)));
    set('flag', maybe(r.next() < 0.5));
    if (r.next() < 0.3) doc.s = r.int(0, 4);
    set('nested', maybe({ x: r.int(0, 3) }));
    docs.push(doc);
  }
  return docs;
}

type Filter = Document;

/** Filters over every field and operator the planner reads (and some it leaves to the documents). */
function makeFilters(count: number): Filter[] {
  const r = prng(11);
  const pick = <T>(list: T[]): T => list[r.int(0, list.length - 1)];
  const value: Record<string, () => unknown> = {
    a: () => (r.next() < 0.1 ? null : r.int(0, 9)),
    b: () => pick(WORDS),
    c: () => r.int(0, 1000) / 10,
    d: () => new Date(Date.UTC(2020, 0, r.int(1, 60))),
    tags: () => r.int(0, 5),
    flag: () => r.next() < 0.5,
    s: () => r.int(0, 4),
    'nested.x': () => r.int(0, 3),
  };
  const fields = Object.keys(value);
  const condition = (field: string): unknown => {
    const v = value[field];
    switch (r.int(0, 11)) {
      case 0:
        return v();
      case 1:
        return { $eq: v() };
      case 2:
        return { $in: [v(), v(), v()] };
      case 3:
        return { $gt: v() };
      case 4:
        return { $gte: v(), $lt: v() };
      case 5:
        return { $lte: v() };
      case 6:
        return { $ne: v() };
      case 7:
        return { $ne: null };
      case 8:
        return { $nin: [v(), v()] };
      case 9:
        return { $exists: r.next() < 0.5 };
      case 10:
        return null;
      default:
        return { $gt: v(), $lte: v() };
    }
  };
  const conjunct = (): Filter => {
    const kind = r.int(0, 9);
    if (kind === 0) {
      const field = pick(fields);
      return { $or: [{ [field]: condition(field) }, { [field]: condition(field) }] };
    }
    if (kind === 1) {
      const [f, g] = [pick(fields), pick(fields)];
      return { $or: [{ [f]: condition(f) }, { [g]: condition(g) }] };
    }
    if (kind === 2)
      return {
        b: {
          $regex: pick(['^b', 'a$', 'ET', 'eta', 'PHA', 'émi', 'sse', 'ße', 'a\\.b\\*c', '^Bet']),
          $options: pick(['', 'i']),
        },
      };
    const field = pick(fields);
    return { [field]: condition(field) };
  };
  const filters: Filter[] = [{}];
  for (let i = 0; i < count; i++) {
    const n = r.int(1, 3);
    const parts = Array.from({ length: n }, conjunct);
    filters.push(n === 1 ? parts[0] : r.next() < 0.5 ? { $and: parts } : Object.assign({}, ...parts));
  }
  return filters;
}

describe('engine: index plans answer as a full scan does', function () {
  this.timeout(120_000);
  let server: TestServer;
  let plain: Collection<AnyDoc>;
  let indexed: Collection<AnyDoc>;
  const filters = makeFilters(150);
  const ids = (docs: AnyDoc[]) => docs.map((d) => d._id);
  const label = (filter: Filter) => JSON.stringify(filter);

  before(async () => {
    server = await startTestServer('index-plans');
    plain = server.db.collection<AnyDoc>('plain');
    indexed = server.db.collection<AnyDoc>('indexed');
    const docs = makeDocs(400);
    await plain.insertMany(docs.map((d) => ({ ...d })));
    // half the documents before the indexes exist, half after (both build paths)
    await indexed.insertMany(docs.slice(0, 200).map((d) => ({ ...d })));
    await indexed.createIndexes([
      { key: { a: 1 } },
      { key: { b: 1, a: -1 } },
      { key: { tags: 1, a: 1 } },
      { key: { d: -1 } },
      { key: { c: 1 } },
      { key: { s: 1 }, sparse: true },
      { key: { 'nested.x': 1 } },
      { key: { flag: 1, b: 1, c: 1 } },
    ]);
    await indexed.insertMany(docs.slice(200).map((d) => ({ ...d })));
    // updates that move documents between keys, and deletes
    for (const [coll, i] of [plain, indexed].flatMap((c) => [3, 50, 77, 250].map((i) => [c, i] as const))) {
      await coll.updateOne({ _id: i }, { $set: { a: 4, b: 'gamma', tags: [1, 5] }, $unset: { d: '' } });
    }
    for (const coll of [plain, indexed]) await coll.deleteMany({ _id: { $in: [10, 11, 300] } });
  });
  after(async () => {
    await server.stop();
  });

  /** Pages of every filter in every sort order (then `_id`), each window, the same on both collections. */
  const samePages = async (list: Filter[], sorts: Document[], windows: number[][]) => {
    for (const filter of list) {
      for (const sort of sorts) {
        for (const [skip, limit] of windows) {
          const pipeline = [{ $match: filter }, { $sort: { ...sort, _id: 1 } }, { $skip: skip }, { $limit: limit }];
          const expected = ids(await plain.aggregate<AnyDoc>(pipeline).toArray());
          const got = ids(await indexed.aggregate<AnyDoc>(pipeline).toArray());
          expect(got, `${label(filter)} ${JSON.stringify(sort)} ${skip}/${limit}`).to.deep.equal(expected);
        }
      }
    }
  };

  it('finds the same documents (unsorted and sorted by _id)', async () => {
    for (const filter of filters) {
      const expected = ids(await plain.find(filter).sort({ _id: 1 }).toArray());
      expect(ids(await indexed.find(filter).sort({ _id: 1 }).toArray()), label(filter)).to.deep.equal(expected);
      const unsorted = ids(await indexed.find(filter).toArray()).sort((x, y) => Number(x) - Number(y));
      expect(unsorted, label(filter)).to.deep.equal(expected);
    }
  });

  it('counts the same ($count, countDocuments, the count command)', async () => {
    for (const filter of filters) {
      const expected = await plain.countDocuments(filter);
      expect(await indexed.countDocuments(filter), label(filter)).to.equal(expected);
      const [row] = await indexed.aggregate([{ $match: filter }, { $count: 'n' }]).toArray();
      expect(row?.n ?? 0, label(filter)).to.equal(expected);
      const counted = await server.db.command({ count: 'indexed', query: filter });
      expect(counted.n, label(filter)).to.equal(expected);
    }
  });

  it('pages the same in every sort order (walks of an index in either direction)', async () => {
    const sorts = [{ a: 1 }, { b: -1 }, { c: 1 }, { d: -1 }, { d: 1 }, { _id: -1 }, { flag: 1, c: -1 }];
    await samePages(filters.slice(0, 60), sorts, [
      [0, 5],
      [7, 20],
    ]);
  });

  it('pages the same through an equality-pinned index prefix ({ b: 1, a: -1 }, { flag: 1, b: 1, c: 1 })', async () => {
    const pinned: Filter[] = [
      { b: 'beta' },
      { b: { $in: ['gamma'] } },
      { b: null },
      { b: 'Émile Zola', a: { $gte: 3 } },
      { flag: true },
      { flag: true, b: 'beta' },
      { flag: false, b: { $in: ['alpha'] }, c: { $gt: 10 } },
      { $and: [{ flag: true }, { b: 'gamma' }, { a: { $ne: 4 } }] },
      { flag: null, b: 'delta' },
    ];
    const sorts = [{ a: 1 }, { a: -1 }, { b: 1, c: -1 }, { c: 1 }, { c: -1 }, { a: -1, c: 1 }];
    await samePages(pinned, sorts, [
      [0, 3],
      [2, 10],
    ]);
    if (!server.embedded) return;
    // one value of b: the walk reads the first documents of that key in `a` order, not every `beta`
    const before = await examined(server.db);
    await indexed.aggregate([{ $match: { b: 'beta' } }, { $sort: { a: -1, _id: 1 } }, { $limit: 2 }]).toArray();
    expect((await examined(server.db)).docs - before.docs).to.be.at.most(6);
  });

  it('joins the same through indexed and unindexed foreign fields', async () => {
    const outer = server.db.collection<AnyDoc>('outer');
    await outer.insertMany([0, 1, 2, 3, 5, 9].map((v, i) => ({ _id: i + 1, v, list: [v, (v + 1) % 6] })));
    for (const [localField, foreignField] of [
      ['v', 'a'],
      ['v', 'tags'],
      ['list', 'tags'],
      ['v', 's'],
    ]) {
      const run = (from: string) =>
        outer
          .aggregate([
            { $sort: { _id: 1 } },
            {
              $lookup: {
                from,
                localField,
                foreignField,
                pipeline: [{ $match: { c: { $gte: 20 } } }, { $sort: { d: -1, _id: 1 } }, { $limit: 3 }],
                as: 'joined',
              },
            },
            { $project: { ids: '$joined._id' } },
          ])
          .toArray();
      expect(await run('indexed'), `${localField}/${foreignField}`).to.deep.equal(await run('plain'));
    }
  });

  it('finds substrings through trigram candidates, also after updates and deletes', async () => {
    const patterns = ['eta', 'ETA', 'mile', 'rass', 'b\\*c', 'ße$'];
    const compare = async () => {
      for (const pattern of patterns) {
        for (const options of ['', 'i']) {
          const filter = { b: { $regex: pattern, $options: options } };
          const expected = ids(await plain.find(filter).sort({ _id: 1 }).toArray());
          expect(ids(await indexed.find(filter).sort({ _id: 1 }).toArray()), `${pattern}/${options}`).to.deep.equal(
            expected,
          );
          expect(await indexed.countDocuments(filter), `${pattern}/${options}`).to.equal(expected.length);
        }
      }
    };
    await compare();
    for (const coll of [plain, indexed]) {
      await coll.updateMany({ _id: { $in: [1, 2, 5, 8] } }, { $set: { b: 'zeta STRASSE' } });
      await coll.updateMany({ b: 'gamma' }, { $set: { b: 'gammabet' } });
      await coll.deleteMany({ _id: { $in: [12, 13] } });
      await coll.insertOne({ _id: 1000, b: 'Émile beta' });
    }
    await compare();
  });

  it('counts from index entries without reading documents, and pages without reading them all', async () => {
    const expected = await plain.countDocuments({ flag: true, b: 'beta', c: { $gt: 10 } });
    const before = await examined(server.db);
    const count = await indexed.countDocuments({ flag: true, b: 'beta', c: { $gt: 10 } });
    const afterCount = await examined(server.db);
    expect(count).to.equal(expected);
    expect(afterCount.docs - before.docs).to.equal(0);
    await indexed.aggregate([{ $match: { a: { $ne: null } } }, { $sort: { c: -1, _id: 1 } }, { $limit: 5 }]).toArray();
    const afterPage = await examined(server.db);
    expect(afterPage.docs - afterCount.docs).to.be.below(50);
  });
});
