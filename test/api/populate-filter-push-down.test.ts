import { expect } from 'chai';
import qs from 'qs';
import request from 'supertest';
import { UNRESTRICTED } from '../../src/query/access.js';
import type { PipelineStage } from '../../src/query/filters/index.js';
import { parsePopulate } from '../../src/query/parse/populate.js';
import { PopulateGuard } from '../../src/query/parse/populate-limits.js';
import { withPopulateFiltersPushedDown } from '../../src/query/plan/populate-filters.js';
import { populateStages, projection, type PlanContext } from '../../src/query/plan/populate-stages.js';
import { relatedEntries } from '../../src/query/plan/related-entries.js';
import type { EntrySelection } from '../../src/query/read-tree.js';
import { seededCommandCountingService } from '../helpers/seed.js';
import type { TestService } from '../helpers/server.js';

type Doc = Record<string, unknown>;

// A populated relation filtered through another relation (`populate[articles][filters][tags]...`,
// GraphQL `articles(filters: { tags: ... })`) is filtered by its own indexed field once the
// related side is answered (one query per relation filter), instead of a `$lookup` per populated
// entry of every entry read. Both plans must populate exactly the same entries.
const CASES: Array<[string, Doc]> = [
  ['api::author.author', { articles: { filters: { tags: { name: { $in: ['node.js', 'Paris'] } } } } }],
  ['api::author.author', { articles: { filters: { category: { name: { $eq: 'Travel' } } }, sort: 'title' } }],
  ['api::author.author', { articles: { filters: { $not: { category: { name: { $eq: 'Travel' } } } } } }],
  ['api::tag.tag', { articles: { filters: { author: { name: { $startsWith: 'A' } } }, fields: ['title'] } }],
  ['api::category.category', { articles: { filters: { tags: { articles: { kind: { $eq: 'news' } } } } } }],
  ['api::article.article', { author: { filters: { articles: { title: { $containsi: 'the' } } } } }],
  ['api::article.article', { tags: { filters: { relatedTags: { name: { $containsi: 'o' } } } } }],
  [
    'api::author.author',
    { articles: { populate: { tags: { filters: { articles: { category: { slug: { $eq: 'travel' } } } } } } } },
  ],
  ['api::event.event', { speakers: { filters: { articles: { kind: { $eq: 'review' } } } } }],
];

describe('populate filters through relations pushed down', () => {
  let service: TestService;
  let commands: string[] = [];
  before(async () => {
    ({ service, commands } = await seededCommandCountingService());
  });
  after(() => service.close());

  const aggregate = (uid: string, pipeline: PipelineStage[]) =>
    service.context.models.collection(uid).aggregate<Doc>(pipeline).toArray();
  const plan: PlanContext = {
    draftAndPublish: (uid) => service.context.registry.contentType(uid)?.draftAndPublish === true,
    collectionName: (uid) => service.context.registry.contentType(uid)?.collectionName ?? uid,
  };
  function selectionOf(uid: string, populate: Doc): EntrySelection {
    let names = 0;
    const schema = service.context.registry.contentType(uid);
    if (!schema) throw new Error(uid);
    const ctx = {
      registry: service.context.registry,
      access: UNRESTRICTED,
      limits: { defaultLimit: 25, maxLimit: 100, withCount: true },
      nextName: () => String(names++),
      guard: new PopulateGuard({ maxDepth: 10, maxRelations: 50 }),
    };
    return { uid, fields: [], populate: parsePopulate(ctx, schema, populate, 'live', 'populate') };
  }
  const read = (selection: EntrySelection) =>
    aggregate(selection.uid, [
      { $sort: { _id: 1 } },
      ...populateStages(plan, selection.populate),
      { $project: projection(selection) },
    ]);

  it('populates the same entries as a $lookup per populated entry', async () => {
    let populated = 0;
    for (const [uid, populate] of CASES) {
      const selection = selectionOf(uid, populate);
      const pushed = await withPopulateFiltersPushedDown(selection, relatedEntries(aggregate));
      expect(pushed, `${uid} ${JSON.stringify(populate)}`).to.not.equal(undefined);
      const joined = await read(selection);
      const answered = await read(pushed as EntrySelection);
      expect(answered, `${uid} ${JSON.stringify(populate)}`).to.deep.equal(joined);
      const text = JSON.stringify(joined);
      if (/"__p\d+":\[\{/.test(text) || /"__p\d+":\{/.test(text)) populated++;
      expect(JSON.stringify(populateStages(plan, (pushed as EntrySelection).populate))).to.not.match(
        /"from":"(tags|categories|authors|articles)","let"/,
      );
    }
    expect(populated).to.be.above(CASES.length / 2);
  });

  it('leaves a selection without such filters as it is', async () => {
    const selection = selectionOf('api::author.author', { articles: { filters: { title: { $containsi: 'a' } } } });
    expect(await withPopulateFiltersPushedDown(selection, relatedEntries(aggregate))).to.equal(undefined);
  });

  it('costs one query per relation filter (REST and GraphQL), with the filtered entries answered', async () => {
    const pipelines: string[] = [];
    service.context.connection.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'aggregate' && event.command.aggregate === 'authors')
        pipelines.push(JSON.stringify(event.command.pipeline));
    });
    commands.length = 0;
    const query = { populate: { articles: { filters: { tags: { name: { $eq: 'Paris' } } }, fields: ['title'] } } };
    const res = await request(service.app).get(`/api/authors?${qs.stringify(query)}`);
    expect(res.status).to.equal(200);
    expect(commands).to.deep.equal(['aggregate', 'aggregate', 'aggregate']);
    // the authors' read joins their articles, not each article's tags
    expect(pipelines.length).to.be.greaterThan(0);
    for (const pipeline of pipelines) expect(pipeline).to.not.contain('"from":"tags"');
    // the same populate with the tags' ids compared in place (no query for them)
    const tags = await request(service.app).get(`/api/tags?${qs.stringify({ filters: { name: { $eq: 'Paris' } } })}`);
    const ids = (tags.body.data as Array<{ id: number }>).map((tag) => tag.id);
    expect(ids.length).to.be.greaterThan(0);
    const byIds = { populate: { articles: { filters: { tags: { id: { $in: ids } } }, fields: ['title'] } } };
    const expected = await request(service.app).get(`/api/authors?${qs.stringify(byIds)}`);
    expect(res.body).to.deep.equal(expected.body);
    const populated = (res.body.data as Array<{ attributes: { articles: { data: unknown[] } } }>).flatMap(
      (author) => author.attributes.articles.data,
    );
    expect(populated.length).to.be.greaterThan(0);

    commands.length = 0;
    const gql = await request(service.app).post('/graphql').send({
      query:
        '{ authors { data { id attributes { articles(filters: { tags: { name: { eq: "Paris" } } }) { data { id } } } } } }',
    });
    expect(gql.body.errors).to.equal(undefined);
    expect(commands).to.deep.equal(['aggregate', 'aggregate']);
    expect(pipelines.at(-1)).to.not.contain('"from":"tags"');
  });
});
