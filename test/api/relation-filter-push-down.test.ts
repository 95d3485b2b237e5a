import { expect } from 'chai';
import qs from 'qs';
import request from 'supertest';
import { UNRESTRICTED } from '../../src/query/access.js';
import { compileFilters, compileFiltersPushedDown, type PipelineStage } from '../../src/query/filters/index.js';
import { relatedEntries } from '../../src/query/plan/related-entries.js';
import { seededCommandCountingService } from '../helpers/seed.js';
import type { TestService } from '../helpers/server.js';

type Doc = Record<string, unknown>;

// Relation filters answered on the related collection first (an `$in` of ids on this side) must
// select exactly the entries the `$lookup` per entry selects, for owning and inverse sides,
// to-one and to-many, nested paths, negations and the LEFT JOIN (row of NULLs) cases.
const CASES: Array<[string, Doc]> = [
  ['api::article.article', { author: { name: { $eq: 'Alice Martin' } } }],
  ['api::article.article', { author: { name: { $startsWith: 'B' } }, kind: { $ne: 'news' } }],
  ['api::article.article', { tags: { name: { $in: ['node.js', 'Paris'] } } }],
  ['api::article.article', { tags: { name: { $null: true } } }],
  ['api::article.article', { author: { bio: { $null: true } } }],
  ['api::article.article', { author: { id: { $null: true } } }],
  ['api::article.article', { category: { name: { $notNull: true } } }],
  ['api::article.article', { $not: { author: { name: { $eq: 'Alice Martin' } } } }],
  [
    'api::article.article',
    { $or: [{ author: { name: { $containsi: 'alice' } } }, { category: { slug: { $eq: 'travel' } } }] },
  ],
  ['api::article.article', { author: { profile: { handle: { $containsi: 'a' } } } }],
  ['api::article.article', { reviewer: { articles: { title: { $containsi: 'the' } } } }],
  ['api::article.article', { localizations: { locale: { $eq: 'fr' } } }],
  ['api::author.author', { articles: { title: { $containsi: 'strapi' } } }],
  ['api::author.author', { articles: { category: { name: { $eq: 'Travel' } } } }],
  ['api::author.author', { articles: { id: { $null: true } } }],
  ['api::author.author', { profile: { followers: { $gt: 100 } } }],
  ['api::author-profile.author-profile', { author: { name: { $notContains: 'a' } } }],
  ['api::category.category', { articles: { tags: { name: { $eq: 'Paris' } } } }],
  ['api::tag.tag', { articles: { kind: { $eq: 'review' } } }],
  ['api::tag.tag', { relatedTags: { name: { $containsi: 'o' } } }],
  ['api::tag.tag', { $not: { articles: { title: { $null: true } } } }],
  ['api::event.event', { speakers: { name: { $in: ['Alice Martin', 'Bruno Costa'] } } }],
];

describe('relation filters pushed down to the related collection', () => {
  let service: TestService;
  let commands: string[] = [];
  before(async () => {
    ({ service, commands } = await seededCommandCountingService());
  });
  after(() => service.close());

  const aggregate = (uid: string, pipeline: PipelineStage[]) =>
    service.context.models.collection(uid).aggregate<Doc>(pipeline).toArray();
  const ids = async (uid: string, stages: PipelineStage[]) =>
    (await aggregate(uid, [...stages, { $sort: { _id: 1 } }, { $project: { _id: 1 } }])).map((d) => d._id);

  it('selects the same entries as a $lookup per entry', async () => {
    let nonEmpty = 0;
    for (const [uid, filters] of CASES) {
      const input = { registry: service.context.registry, uid, filters, access: UNRESTRICTED };
      const joined = await ids(uid, compileFilters(input));
      const pushed = await ids(uid, await compileFiltersPushedDown(input, relatedEntries(aggregate)));
      expect(pushed, `${uid} ${JSON.stringify(filters)}`).to.deep.equal(joined);
      if (joined.length > 0) nonEmpty++;
    }
    expect(nonEmpty).to.be.above(CASES.length / 2);
  });

  it('filters the entries by their own fields once the related side is answered', async () => {
    const input = {
      registry: service.context.registry,
      uid: 'api::article.article',
      filters: { author: { name: { $eq: 'Alice Martin' } }, tags: { articles: { kind: { $eq: 'news' } } } },
      access: UNRESTRICTED,
    };
    const stages = await compileFiltersPushedDown(input, relatedEntries(aggregate));
    expect(JSON.stringify(stages)).to.not.contain('$lookup');
  });

  it('costs one query per relation filter, whatever the number of entries (REST and GraphQL)', async () => {
    const get = async (query: Doc) => {
      commands.length = 0;
      const res = await request(service.app).get(`/api/articles?${qs.stringify(query)}`);
      expect(res.status).to.equal(200);
      return [...commands];
    };
    for (const pageSize of [1, 25]) {
      const pagination = { pageSize };
      expect(await get({ filters: { category: { name: { $eq: 'Travel' } } }, pagination })).to.deep.equal([
        'aggregate',
        'aggregate',
        'aggregate',
      ]);
      expect(
        await get({
          filters: { author: { profile: { handle: { $notNull: true } } } },
          pagination: { ...pagination, withCount: false },
        }),
      ).to.deep.equal(['aggregate', 'aggregate', 'aggregate']);
    }
    commands.length = 0;
    const res = await request(service.app)
      .post('/graphql')
      .send({ query: '{ articles(filters: { category: { name: { eq: "Travel" } } }) { data { id } } }' });
    expect(res.body.errors).to.equal(undefined);
    expect(commands).to.deep.equal(['aggregate', 'aggregate']);
  });
});
