// explain through the driver: the plan the engine really ran (IXSCAN with its index and bounds,
// COLLSCAN, FETCH, SORT, COUNT_SCAN) and what it examined. Written to mongod's documented explain
// output so that it also passes against a real MongoDB (MONGODB_URI): stages are looked up
// anywhere in the reply, since mongod nests them differently for pushed-down pipelines.
import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { stages } from './helpers/explain.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

function stage(explain: unknown, name: string): Document {
  const [s] = stages(explain, name);
  expect(s, `a ${name} stage in ${JSON.stringify(explain)}`).to.not.equal(undefined);
  return s as Document;
}

/** The first `executionStats` section of a reply (top level, or inside `$cursor`). */
function executionStats(explain: unknown): Document {
  let found: Document | undefined;
  const visit = (v: unknown): void => {
    if (found || !v || typeof v !== 'object') return;
    const d = v as Document;
    if (d.executionStats) found = d.executionStats as Document;
    else Object.values(d).forEach(visit);
  };
  visit(explain);
  expect(found, 'executionStats').to.not.equal(undefined);
  return found as Document;
}

describe('engine: explain', () => {
  let server: TestServer;
  let articles: Collection<AnyDoc>;
  before(async () => {
    server = await startTestServer('explain');
    articles = server.db.collection<AnyDoc>('articles');
    await articles.insertMany(
      Array.from({ length: 200 }, (_, i) => ({ _id: i, tag: `t${i % 10}`, rank: i, title: `title ${199 - i}` })),
    );
    await articles.createIndex({ tag: 1 });
    await articles.createIndex({ rank: 1 });
  });
  after(async () => {
    await server.stop();
  });

  it('an $or over two indexed fields: FETCH over an OR of both IXSCANs, only their documents examined', async () => {
    const filter = { $or: [{ tag: 't3' }, { rank: { $gte: 190 } }] };
    const explain = await articles.find(filter).explain('executionStats');
    const or = stage(explain, 'OR');
    expect((or.inputStages as Document[]).map((s) => s.indexName).sort()).to.deep.equal(['rank_1', 'tag_1']);
    expect(stages(explain, 'COLLSCAN')).to.have.length(0);
    const stats = executionStats(explain);
    // t3: 3, 13, ..., 193 (20); rank >= 190: 10, of which 193 is both
    expect(stats.nReturned).to.equal(29);
    expect(stats.totalDocsExamined).to.be.at.most(30);
    const ids = (await articles.find(filter).toArray()).map((d) => d._id as number);
    expect(ids).to.have.length(29);
    expect(ids.every((id) => id % 10 === 3 || id >= 190)).to.equal(true);
  });

  it('find on an indexed field: FETCH over IXSCAN with the index and its bounds; keys and documents examined', async () => {
    const explain = await articles.find({ tag: 't3' }).explain('executionStats');
    const ixscan = stage(explain, 'IXSCAN');
    expect(ixscan.indexName).to.equal('tag_1');
    expect(ixscan.keyPattern).to.deep.equal({ tag: 1 });
    expect(ixscan.direction).to.equal('forward');
    expect(ixscan.indexBounds).to.deep.equal({ tag: ['["t3", "t3"]'] });
    expect(stage(explain, 'FETCH').inputStage.stage).to.equal('IXSCAN');
    expect(stages(explain, 'COLLSCAN')).to.have.length(0);
    const stats = executionStats(explain);
    expect(stats.nReturned).to.equal(20);
    expect(stats.totalDocsExamined).to.equal(20);
    expect(stats.totalKeysExamined).to.be.within(20, 21);
    expect(stats.executionTimeMillis).to.be.a('number');
  });

  it('range bounds as mongod prints them', async () => {
    const explain = await articles.find({ rank: { $gt: 190 } }).explain('executionStats');
    expect(stage(explain, 'IXSCAN').indexBounds).to.deep.equal({ rank: ['(190, inf.0]'] });
    expect(executionStats(explain).nReturned).to.equal(9);
    expect(executionStats(explain).totalDocsExamined).to.equal(9);
  });

  it('find on an unindexed field: COLLSCAN examining every document, no keys', async () => {
    const explain = await articles.find({ title: 'title 5' }).explain('executionStats');
    expect(stage(explain, 'COLLSCAN').filter).to.be.an('object');
    expect(stages(explain, 'IXSCAN')).to.have.length(0);
    const stats = executionStats(explain);
    expect(stats.nReturned).to.equal(1);
    expect(stats.totalDocsExamined).to.equal(200);
    expect(stats.totalKeysExamined).to.equal(0);
  });

  it('a sorted page served by an index walk: LIMIT over FETCH over a backward IXSCAN, no SORT', async () => {
    const explain = await articles.find({}).sort({ rank: -1 }).limit(5).explain('executionStats');
    expect(stages(explain, 'SORT')).to.have.length(0);
    const ixscan = stage(explain, 'IXSCAN');
    expect(ixscan.indexName).to.equal('rank_1');
    expect(ixscan.direction).to.equal('backward');
    expect(ixscan.indexBounds).to.deep.equal({ rank: ['[MaxKey, MinKey]'] });
    expect(stage(explain, 'LIMIT').limitAmount).to.equal(5);
    const stats = executionStats(explain);
    expect(stats.nReturned).to.equal(5);
    expect(stats.totalDocsExamined).to.equal(5);
  });

  it('a sort no index serves: a SORT stage with the pattern', async () => {
    const explain = await articles.find({ tag: 't3' }).sort({ title: 1 }).explain('executionStats');
    expect(stage(explain, 'SORT').sortPattern).to.deep.equal({ title: 1 });
    expect(stage(explain, 'IXSCAN').indexName).to.equal('tag_1');
    expect(executionStats(explain).nReturned).to.equal(20);
  });

  it('queryPlanner verbosity has no executionStats', async () => {
    const explain = await articles.find({ tag: 't1' }).explain('queryPlanner');
    expect(explain.queryPlanner.namespace).to.equal(`${server.db.databaseName}.articles`);
    expect(explain.queryPlanner.winningPlan).to.be.an('object');
    expect(explain.executionStats).to.equal(undefined);
  });

  it('count: COUNT_SCAN reads no document; an empty query is a fast count', async () => {
    const explain = await server.db.command({
      explain: { count: 'articles', query: { tag: 't3' } },
      verbosity: 'executionStats',
    });
    expect(stage(explain, 'COUNT').inputStage.stage).to.equal('COUNT_SCAN');
    expect(stage(explain, 'COUNT_SCAN').indexName).to.equal('tag_1');
    expect(executionStats(explain).totalDocsExamined).to.equal(0);
    const fast = await server.db.command({ explain: { count: 'articles' }, verbosity: 'queryPlanner' });
    expect(fast.queryPlanner.winningPlan.stage).to.equal('RECORD_STORE_FAST_COUNT');
  });

  it('count on a compound index whose middle field is not bounded: the keys settle it, no document read', async () => {
    const counted = server.db.collection<AnyDoc>('counted');
    await counted.insertMany(
      Array.from({ length: 120 }, (_, i) => ({
        _id: i,
        tags: [i % 4, (i % 4) + 10],
        locale: i % 3 === 0 ? 'fr' : 'en',
        ...(i % 5 === 0 ? {} : { publishedAt: i % 7 === 0 ? null : new Date(i * 1000) }),
      })),
    );
    await counted.createIndex({ tags: 1, locale: 1, publishedAt: 1 });
    const filter = { tags: 2, publishedAt: { $ne: null } };
    const expected = Array.from({ length: 120 }, (_, i) => i).filter(
      (i) => i % 4 === 2 && i % 5 !== 0 && i % 7 !== 0,
    ).length;
    expect(await counted.countDocuments(filter)).to.equal(expected);
    expect(await counted.countDocuments({ ...filter, publishedAt: { $gt: new Date(60_000) } })).to.equal(
      Array.from({ length: 120 }, (_, i) => i).filter((i) => i % 4 === 2 && i % 5 !== 0 && i % 7 !== 0 && i > 60)
        .length,
    );
    const explain = await server.db.command({
      explain: { count: 'counted', query: filter },
      verbosity: 'executionStats',
    });
    expect(executionStats(explain).totalDocsExamined).to.equal(0);
  });

  it('count of a case-insensitive substring: the title index with the regex bounds, no document read', async () => {
    await articles.createIndex({ title: 1 });
    expect(await articles.countDocuments({ title: /TITLE 1/i, tag: { $ne: 't3' } })).to.equal(
      (await articles.find({}).toArray()).filter((d) => /title 1/.test(String(d.title)) && d.tag !== 't3').length,
    );
    // the engine's own plan (mongod fetches the documents and filters them)
    if (!server.embedded) return articles.dropIndex('title_1');
    const explain = await server.db.command({
      explain: { count: 'articles', query: { title: /TITLE 1/i, tag: { $ne: 't3' } } },
      verbosity: 'executionStats',
    });
    const scan = stage(explain, 'COUNT').inputStage;
    expect(scan.stage).to.equal('IXSCAN');
    expect(scan.indexName).to.equal('title_1');
    expect(scan.indexBounds.title).to.deep.equal(['["", {})', '[/TITLE 1/, /TITLE 1/]']);
    expect(executionStats(explain).totalDocsExamined).to.equal(0);
    await articles.dropIndex('title_1');
  });

  it('distinct: the filter planned on its index', async () => {
    const explain = await server.db.command({
      explain: { distinct: 'articles', key: 'title', query: { tag: 't3' } },
      verbosity: 'executionStats',
    });
    expect(stage(explain, 'IXSCAN').indexName).to.equal('tag_1');
    expect(executionStats(explain).totalDocsExamined).to.equal(20);
  });

  it('aggregate: the leading $match on an index, with the rest of the pipeline', async () => {
    const pipeline = [{ $match: { tag: 't3' } }, { $group: { _id: null, total: { $sum: '$rank' } } }];
    const explain = await articles.aggregate(pipeline).explain('executionStats');
    expect(stage(explain, 'IXSCAN').indexName).to.equal('tag_1');
    expect(executionStats(explain).totalDocsExamined).to.equal(20);
    const page = await articles
      .aggregate([{ $match: { rank: { $gte: 100 } } }, { $sort: { rank: 1 } }, { $limit: 3 }])
      .explain('executionStats');
    expect(stage(page, 'IXSCAN').indexName).to.equal('rank_1');
    expect(stages(page, 'SORT')).to.have.length(0);
    expect(executionStats(page).nReturned).to.equal(3);
  });

  it('update and delete: the documents they would change, found as they find them, nothing changed', async () => {
    const update = await server.db.command({
      explain: { update: 'articles', updates: [{ q: { tag: 't3' }, u: { $set: { x: 1 } }, multi: true }] },
      verbosity: 'executionStats',
    });
    expect(update.queryPlanner.winningPlan.stage).to.equal('UPDATE');
    expect(stage(update, 'IXSCAN').indexName).to.equal('tag_1');
    expect(executionStats(update).totalDocsExamined).to.equal(20);
    const remove = await server.db.command({
      explain: { delete: 'articles', deletes: [{ q: { rank: { $lt: 5 } }, limit: 0 }] },
      verbosity: 'executionStats',
    });
    expect(remove.queryPlanner.winningPlan.stage).to.equal('DELETE');
    expect(stage(remove, 'IXSCAN').indexName).to.equal('rank_1');
    expect(await articles.countDocuments({ x: 1 })).to.equal(0);
    expect(await articles.countDocuments({})).to.equal(200);
  });

  it('a missing collection: EOF, nothing examined', async () => {
    const explain = await server.db.collection('nothing').find({ a: 1 }).explain('executionStats');
    expect(explain.queryPlanner.winningPlan.stage).to.equal('EOF');
    expect(executionStats(explain).nReturned).to.equal(0);
  });
});
