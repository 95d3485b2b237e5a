import { expect } from 'chai';
import { Random } from '../../scripts/fuzz/random.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// A count whose conditions all sit on one index's fields is answered from the index's ranks: a
// rank difference per interval of the last checked field, stepping over the distinct values of
// the fields before it (`{ tags: 3, publishedAt: { $ne: null } }` on `{ tags, locale,
// publishedAt }`: a few look-ups per locale, however many entries). `countDocuments` takes that
// path; the same `$match` with `{ $skip: 0 }` before `$count` reads the documents. Both must agree.
describe('engine: counts from index ranks', () => {
  let server: TestServer;
  const random = new Random(20261209);
  const rng = () => random.next();
  const pick = <T>(values: T[]): T => values[Math.floor(rng() * values.length)] as T;

  before(async () => {
    server = await startTestServer('key-count');
    const docs: AnyDoc[] = [];
    for (let id = 1; id <= 1500; id++) {
      const doc: AnyDoc = { _id: id, locale: pick(['en', 'fr', 'de', null]), wide: id % 300 };
      const tags = [1, 2, 3, 4].filter(() => rng() < 0.4);
      if (rng() < 0.9) doc.tags = tags.length === 1 && rng() < 0.5 ? tags[0] : tags;
      const r = rng();
      if (r < 0.6) doc.publishedAt = new Date(1_700_000_000_000 + Math.floor(rng() * 50) * 1000);
      else if (r < 0.75) doc.publishedAt = null;
      else if (r < 0.85) doc.publishedAt = pick([1, 2, 'x']);
      docs.push(doc);
    }
    const articles = server.db.collection<AnyDoc>('articles');
    await articles.insertMany(docs);
    await articles.createIndex({ tags: 1, locale: 1, publishedAt: 1 });
    await articles.createIndex({ wide: 1, publishedAt: 1 });
  });
  after(async () => {
    await server.stop();
  });

  const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
  const filters: AnyDoc[] = [
    { tags: 2, publishedAt: { $ne: null } },
    { tags: 3, locale: { $in: ['en', 'de'] }, publishedAt: { $ne: null } },
    { tags: 1, locale: 'fr', publishedAt: { $gte: at(10), $lt: at(30) } },
    { tags: 4, publishedAt: { $in: [at(5), at(5), null, 2] } },
    { tags: 2, locale: null, publishedAt: null },
    { tags: { $in: [1, 3] }, publishedAt: { $exists: true, $ne: null } },
    { tags: 1, locale: { $gt: 'de' } },
    { tags: 5, publishedAt: { $ne: null } },
    // 300 distinct values before the checked field: more steps than allowed, the keys are read
    { wide: { $gte: 0 }, publishedAt: { $gt: at(20) } },
    { wide: { $in: [7, 8, 9] }, publishedAt: { $type: 'date' } },
  ];

  async function expectCountsAgree(): Promise<void> {
    const articles = server.db.collection<AnyDoc>('articles');
    for (const filter of filters) {
      const fast = await articles.countDocuments(filter);
      const [general] = await articles.aggregate([{ $match: filter }, { $skip: 0 }, { $count: 'n' }]).toArray();
      expect(fast, JSON.stringify(filter)).to.equal(general?.n ?? 0);
    }
  }

  it('counts what the documents count', async () => {
    await expectCountsAgree();
    const articles = server.db.collection<AnyDoc>('articles');
    expect(await articles.countDocuments(filters[0] as AnyDoc)).to.be.greaterThan(100);
  });

  it('examines a few keys, not one per entry', async () => {
    const scanned = async () => {
      const status = await server.client.db('admin').command({ serverStatus: 1 });
      return Number(status.metrics.queryExecutor.scanned);
    };
    const before = await scanned();
    const n = await server.db.collection<AnyDoc>('articles').countDocuments({ tags: 2, publishedAt: { $ne: null } });
    expect(n).to.be.greaterThan(100);
    expect((await scanned()) - before).to.be.lessThan(40);
  });

  it('still agrees after writes', async () => {
    const articles = server.db.collection<AnyDoc>('articles');
    await articles.updateMany({ wide: { $lt: 40 } }, { $set: { publishedAt: null } });
    await articles.deleteMany({ wide: { $gte: 280 } });
    await articles.updateMany({ locale: 'de' }, { $set: { locale: 'es' } });
    await expectCountsAgree();
  });
});
