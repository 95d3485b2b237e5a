import { expect } from 'chai';
import type { UpdateFilter } from 'mongodb';
import { Random } from '../../scripts/fuzz/random.js';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// How the service reads a to-many inverse side in its link order (a tag's first 5 articles):
// `$match` on the owning field holding the id → `$addFields` of the position that link keeps
// (`__order.tags.<id>`) → `$sort` on it and `_id` → window. The engine walks its link-order index
// instead of computing every position. The same stages with `{ $skip: 0 }` after the `$match`
// take the general path: both must answer the same documents in the same order, also after
// writes change the links (the index is kept up to date) and while another session's
// transaction holds uncommitted ones.
describe('engine: a window of an inverse relation in link order', () => {
  let server: TestServer;
  const random = new Random(20261208);
  const rng = () => random.next();
  const pick = <T>(values: T[]): T => values[Math.floor(rng() * values.length)] as T;

  const pull = (tag: number) => ({ $pull: { tags: tag } }) as unknown as UpdateFilter<AnyDoc>;
  const position = (key: unknown) => ({
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
      0,
    ],
  });

  function randomArticle(id: number): AnyDoc {
    const article: AnyDoc = { _id: id, title: `t${Math.floor(rng() * 7)}`, locale: pick(['en', 'fr']) };
    if (rng() < 0.8) article.publishedAt = rng() < 0.5 ? new Date(1_700_000_000_000 + id) : null;
    const tags = [1, 2, 3, 4].filter(() => rng() < 0.45);
    const shape = rng();
    // an array (sometimes with a repeated id), a single id, null, or no field
    if (shape < 0.75) article.tags = rng() < 0.05 && tags.length ? [...tags, tags[0]] : tags;
    else if (shape < 0.85) article.tags = pick([1, 2, 3]);
    else if (shape < 0.92) article.tags = null;
    const keys: AnyDoc = {};
    for (const tag of tags) {
      const r = rng();
      // mostly string keys as the service writes them, some missing, null, or numbers
      if (r < 0.75) keys[String(tag)] = pick(['a0', 'a1', 'a2', 'Zz', 'g0000012', 'b00']) + Math.floor(rng() * 3);
      else if (r < 0.85) keys[String(tag)] = null;
      else if (r < 0.9) keys[String(tag)] = Math.floor(rng() * 5);
    }
    // a stale key for a tag the article no longer holds
    if (rng() < 0.05) keys['4'] = 'a5';
    if (rng() < 0.9) article.__order = { tags: keys };
    return article;
  }

  before(async () => {
    server = await startTestServer('link-order-window');
    const articles: AnyDoc[] = [];
    for (let id = 1; id <= 400; id++) articles.push(randomArticle(id));
    await server.db.collection<AnyDoc>('articles').insertMany(articles);
    await server.db.collection<AnyDoc>('tags').insertMany([1, 2, 3, 4, 5].map((id) => ({ _id: id, name: `tag${id}` })));
  });
  after(async () => {
    await server.stop();
  });

  const extraFilters: AnyDoc[] = [{}, { publishedAt: { $ne: null } }, { locale: 'fr', publishedAt: { $ne: null } }];
  const windows: AnyDoc[][] = [[{ $limit: 5 }], [{ $skip: 20 }, { $limit: 10 }], [{ $limit: 500 }], [{ $limit: 1 }]];

  async function windowOf(tag: number, extra: AnyDoc, window: AnyDoc[], general: boolean): Promise<AnyDoc[]> {
    return server.db
      .collection<AnyDoc>('articles')
      .aggregate([
        { $match: { tags: { $in: [tag] } } },
        ...(Object.keys(extra).length ? [{ $match: extra }] : []),
        ...(general ? [{ $skip: 0 }] : []),
        { $addFields: { __position: position(String(tag)) } },
        { $sort: { __position: 1, _id: 1 } },
        ...window,
        { $project: { _id: 1, title: 1, __position: 1 } },
      ])
      .toArray();
  }

  async function expectSameWindows(): Promise<number> {
    let compared = 0;
    for (const tag of [1, 2, 3, 4, 5]) {
      for (const extra of extraFilters) {
        for (const window of windows) {
          const fast = await windowOf(tag, extra, window, false);
          const general = await windowOf(tag, extra, window, true);
          expect(fast, JSON.stringify([tag, extra, window])).to.deep.equal(general);
          compared += fast.length;
        }
      }
    }
    return compared;
  }

  it('answers the general path’s windows, and examines only the window’s entries', async () => {
    expect(await expectSameWindows()).to.be.greaterThan(500);
    const examined = async () => {
      const status = await server.client.db('admin').command({ serverStatus: 1 });
      return Number(status.metrics.queryExecutor.scannedObjects);
    };
    const before = await examined();
    await windowOf(2, {}, [{ $limit: 5 }], false);
    const fast = (await examined()) - before;
    await windowOf(2, {}, [{ $limit: 5 }], true);
    const general = (await examined()) - before - fast;
    expect(fast).to.equal(5);
    expect(general).to.be.greaterThan(100);
  });

  it('stays exact after writes change the links (inserts, moves, unlinks, deletes)', async () => {
    const articles = server.db.collection<AnyDoc>('articles');
    await windowOf(1, {}, [{ $limit: 5 }], false); // the index is built by now
    for (let round = 0; round < 60; round++) {
      const id = 1 + Math.floor(rng() * 420);
      const action = rng();
      if (action < 0.3)
        await articles.updateOne({ _id: id }, { $set: { [`__order.tags.${pick([1, 2, 3])}`]: `a${round}` } });
      else if (action < 0.45) await articles.updateOne({ _id: id }, pull(pick([1, 2, 3, 4])));
      else if (action < 0.6) await articles.updateOne({ _id: id }, { $addToSet: { tags: pick([1, 2, 5]) } });
      else if (action < 0.7) await articles.deleteOne({ _id: id });
      else if (action < 0.85) await articles.replaceOne({ _id: id }, randomArticle(id), { upsert: true });
      else await articles.updateOne({ _id: id }, { $unset: { __order: '' } });
    }
    await expectSameWindows();
  });

  it('takes the general path for values its index cannot represent, with the same answer', async () => {
    const articles = server.db.collection<AnyDoc>('articles');
    // an id spelled otherwise by $toString, and an order path that is not an embedded document
    await articles.insertOne({ _id: 1001, tags: [2], __order: { tags: { '2': ['a0'] } } });
    await expectSameWindows();
    await articles.deleteOne({ _id: 1001 });
    await articles.insertOne({ _id: 1002, tags: [1, 2.5], __order: { tags: { '1': 'a0' } }, publishedAt: null });
    await expectSameWindows();
    await articles.deleteOne({ _id: 1002 });
    await expectSameWindows();
  });

  it('reads the committed links while another session’s transaction holds uncommitted ones', async () => {
    const articles = server.db.collection<AnyDoc>('articles');
    const committed = await windowOf(3, {}, [{ $limit: 500 }], false);
    expect(committed.length).to.be.greaterThan(5);
    const session = server.client.startSession();
    try {
      session.startTransaction();
      await articles.updateOne({ _id: committed[0]?._id }, { $set: { '__order.tags.3': 'zzzz' } }, { session });
      await articles.updateOne({ _id: committed[1]?._id }, pull(3), { session });
      await articles.insertOne({ _id: 2001, tags: [3], __order: { tags: { '3': '0' } } }, { session });
      expect(await windowOf(3, {}, [{ $limit: 500 }], false)).to.deep.equal(committed);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await windowOf(3, {}, [{ $limit: 500 }], false)).to.deep.equal(committed);
  });

  it('serves the $lookup the service populates with, per related entry', async () => {
    const tags = server.db.collection<AnyDoc>('tags');
    const populate = (general: boolean) =>
      tags
        .aggregate([
          { $sort: { _id: 1 } },
          {
            $lookup: {
              from: 'articles',
              localField: '_id',
              foreignField: 'tags',
              let: { owner: '$_id' },
              pipeline: [
                { $match: { publishedAt: { $ne: null } } },
                ...(general ? [{ $skip: 0 }] : []),
                { $addFields: { __position: position({ $toString: '$$owner' }) } },
                { $sort: { __position: 1, _id: 1 } },
                { $limit: 5 },
                { $project: { _id: 1, title: 1 } },
              ],
              as: 'articles',
            },
          },
        ])
        .toArray();
    const fast = await populate(false);
    expect(fast).to.deep.equal(await populate(true));
    expect(fast.filter((tag) => tag.articles.length === 5).length).to.be.greaterThan(2);
  });
});
