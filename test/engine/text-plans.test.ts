import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { type AnyDoc, examined, startTestServer, type TestServer } from './helpers/server.js';

// An unanchored case-insensitive literal regex on an indexed field is settled on the trigram
// index's case-folded values: counts read no document (the rest of the filter from another
// index's entries), sorted pages pass over non-matching documents without reading them. A
// collection without indexes answers the same filters by reading every document: both must
// give the same answers, before and after updates and deletes of the indexed strings.

const TITLES: unknown[] = [
  'A Guide to Sourdough',
  'a field GUIDE',
  'guided tours',
  'Guid eline',
  // every trigram of the literal, not the literal: settled on the folded value
  'guid ide',
  'ſtory: no sto, tor or ory',
  'no match here',
  'STRASSE',
  'straße',
  'Strasse am See',
  'Émile Zola',
  'ÉMILE',
  'émile',
  'ſtory of a Kelvin K',
  'kelvin k',
  'ΣΟΦΊΑ σοφία ς',
  'İstanbul',
  'istanbul',
  'a.b*c (x)[y]',
  'A.B*C (X)[Y]',
  'ǅemal ǆ',
  '😀 emoji guide 😀',
  '',
  'gu',
  42,
  null,
  true,
  ['array guide', 'other'],
  ['none', 7],
  [],
  { nested: 'guide' },
];

const PATTERNS = [
  'guide',
  'GUIDE',
  'uid',
  'strasse',
  'STRAßE',
  'raß',
  'émile',
  'ÉMI',
  'ſto',
  'story',
  'kelvin k',
  'σοφία',
  'ΣΟΦΊΑ',
  'stanbul',
  'İst',
  'a\\.b\\*c \\(x\\)\\[y\\]',
  'ǆemal',
  '😀 emoji',
  'gu',
  'é',
  'zzz',
  '^guide',
  'guide$',
];

function makeDocs(n: number): AnyDoc[] {
  const docs: AnyDoc[] = [];
  for (let i = 1; i <= n; i++) {
    const doc: AnyDoc = { _id: i, n: i % 7, published: i % 5 === 0 ? null : new Date(Date.UTC(2024, 0, 1 + (i % 28))) };
    if (i % 11 !== 0) doc.title = TITLES[(i * 7) % TITLES.length];
    if (i % 3 === 0) doc.locale = 'fr';
    else if (i % 13 !== 0) doc.locale = 'en';
    docs.push(doc);
  }
  return docs;
}

/** The other conjuncts: none, the default match of a list, small and large ranges of one index. */
const RESTS: Document[] = [
  {},
  { locale: 'en', published: { $ne: null } },
  { locale: 'fr' },
  { n: 3 },
  { n: { $ne: 3 } },
  { n: { $gte: 1 } },
  { published: { $ne: null } },
  { locale: 'en', n: { $in: [1, 2] } },
  { missing: { $exists: false } },
];

describe('engine: substring plans answer as a full scan does', function () {
  this.timeout(120_000);
  let server: TestServer;
  let plain: Collection<AnyDoc>;
  let indexed: Collection<AnyDoc>;
  const ids = (docs: AnyDoc[]) => docs.map((d) => d._id);
  const filters = (): Document[] =>
    PATTERNS.flatMap((pattern) =>
      RESTS.flatMap((rest) =>
        ['i', '', 'im'].map((options) => {
          const text = { title: { $regex: pattern, $options: options } };
          return Object.keys(rest).length === 0 ? text : { $and: [rest, text] };
        }),
      ),
    );

  before(async () => {
    server = await startTestServer('text-plans');
    plain = server.db.collection<AnyDoc>('plain');
    indexed = server.db.collection<AnyDoc>('indexed');
    const docs = makeDocs(300);
    await plain.insertMany(docs.map((d) => ({ ...d })));
    await indexed.insertMany(docs.slice(0, 150).map((d) => ({ ...d })));
    await indexed.createIndexes([{ key: { title: 1 } }, { key: { locale: 1, published: 1 } }, { key: { n: 1 } }]);
    await indexed.insertMany(docs.slice(150).map((d) => ({ ...d })));
  });
  after(async () => {
    await server.stop();
  });

  const compare = async () => {
    for (const filter of filters()) {
      const label = JSON.stringify(filter);
      const expected = ids(await plain.find(filter).sort({ _id: 1 }).toArray());
      expect(await indexed.countDocuments(filter), label).to.equal(expected.length);
      const [row] = await indexed.aggregate([{ $match: filter }, { $count: 'n' }]).toArray();
      expect(row?.n ?? 0, label).to.equal(expected.length);
      expect(ids(await indexed.find(filter).sort({ _id: 1 }).toArray()), label).to.deep.equal(expected);
      const page = [{ $match: filter }, { $sort: { _id: 1 } }, { $skip: 3 }, { $limit: 4 }];
      expect(ids(await indexed.aggregate<AnyDoc>(page).toArray()), label).to.deep.equal(expected.slice(3, 7));
      const backward = [{ $match: filter }, { $sort: { _id: -1 } }, { $limit: 5 }];
      expect(ids(await indexed.aggregate<AnyDoc>(backward).toArray()), label).to.deep.equal(
        expected.slice(-5).reverse(),
      );
    }
  };

  it('counts and pages the same, also after updates and deletes of the indexed strings', async () => {
    await compare();
    for (const coll of [plain, indexed]) {
      await coll.updateMany({ _id: { $in: [1, 2, 3, 40] } }, { $set: { title: 'Another GUIDE' } });
      await coll.updateMany({ _id: { $in: [5, 6] } }, { $set: { title: ['x', 'straße guide'] } });
      await coll.updateMany({ _id: { $in: [7, 8, 9] } }, { $set: { title: 12 } });
      await coll.updateMany({ _id: { $in: [10, 12] } }, { $unset: { title: '' } });
      await coll.updateMany({ _id: { $in: [14, 15] } }, { $set: { locale: 'en', published: null } });
      await coll.deleteMany({ _id: { $in: [20, 21, 22, 100] } });
      await coll.insertOne({ _id: 1000, title: 'Émile guide', locale: 'en', published: new Date(0), n: 3 });
    }
    await compare();
    // enough rewrites that retired versions outnumber the documents (the trigram index is rebuilt)
    for (let round = 0; round < 3; round++) {
      for (const coll of [plain, indexed])
        await coll.updateMany({ $expr: { $eq: [{ $type: '$title' }, 'string'] } }, [
          { $set: { title: { $concat: ['Re ', '$title'] } } },
        ]);
    }
    await compare();
  });

  it('counts an exact substring with the default match of a list without reading a document', async () => {
    // the rest from the entries of `{ n: 1 }`: inside its range, or the matches less those outside it
    for (const rest of [{}, { n: 3 }, { n: { $ne: 3 } }]) {
      const filter = { $and: [rest, { title: /guide/i }] };
      const expected = await plain.countDocuments(filter);
      const before = await examined(server.db);
      expect(await indexed.countDocuments(filter), JSON.stringify(rest)).to.equal(expected);
      const after = await examined(server.db);
      if (server.embedded) expect(after.docs - before.docs, JSON.stringify(rest)).to.equal(0);
    }
    // a sorted page reads only the documents whose title matches, up to the last one it returns
    const filter = { locale: 'en', published: { $ne: null }, title: /guide/i };
    const expected = ids(await plain.find(filter).sort({ _id: 1 }).limit(3).toArray());
    const titled = await plain.countDocuments({ title: /guide/i, _id: { $lte: expected[2] } });
    const before = await examined(server.db);
    expect(ids(await indexed.find(filter).sort({ _id: 1 }).limit(3).toArray())).to.deep.equal(expected);
    const after = await examined(server.db);
    if (server.embedded) expect(after.docs - before.docs).to.equal(titled);
  });
});
