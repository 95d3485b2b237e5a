import { expect } from 'chai';
import { Aggregator } from 'mingo';
import type { RelationInfo } from '../../src/content-types/index.js';
import { populateStages, projection } from '../../src/query/plan/populate-stages.js';
import type { PopulateMap, RelationPopulate } from '../../src/query/read-tree.js';

/** The populate planner's stages: joins, windows, ordering and projections, run on mingo where useful. */

const plan = {
  draftAndPublish: (uid: string) => uid === 'api::article.article',
  collectionName: (uid: string) => (uid === 'api::author.author' ? 'authors' : uid),
};

function relation(
  info: Partial<RelationInfo> & { attribute: string; target: string },
  extra: Partial<RelationPopulate> = {},
): RelationPopulate {
  return {
    kind: 'relation',
    attribute: info.attribute,
    count: false,
    relation: { multiple: false, stored: true, ...info },
    selection: { uid: info.target, fields: ['name'], populate: {} },
    filterStages: [],
    sort: null,
    publicationState: 'live',
    window: null,
    as: `__p${info.attribute}`,
    countAs: `__c${info.attribute}`,
    ...extra,
  };
}

type Lookup = {
  from: string;
  localField: string;
  foreignField: string;
  let?: Record<string, unknown>;
  pipeline: Record<string, unknown>[];
  as: string;
};
const lookupOf = (stage: Record<string, unknown> | undefined) => (stage?.$lookup ?? {}) as Lookup;

describe('query plan: populate stages', () => {
  it('joins a stored relation on its ids through the index, with no per-entry sort', () => {
    const [stage] = populateStages(plan, { author: relation({ attribute: 'author', target: 'api::author.author' }) });
    const lookup = lookupOf(stage);
    expect(lookup).to.include({ localField: 'author', foreignField: '_id', as: '__pauthor' });
    expect(lookup.pipeline).to.deep.equal([{ $project: { _id: 1, name: 1 } }]);
  });

  it('joins inverse sides on the owning field and localizations on the locale group, live entries only on D&P targets', () => {
    const stages = populateStages(plan, {
      articles: relation({
        attribute: 'articles',
        target: 'api::article.article',
        multiple: true,
        stored: false,
        inverse: { field: 'author', multiple: false },
      }),
      localizations: relation({
        attribute: 'localizations',
        target: 'api::article.article',
        multiple: true,
        stored: false,
        localizations: true,
      }),
    });
    expect(lookupOf(stages[0])).to.include({ localField: '_id', foreignField: 'author' });
    expect(lookupOf(stages[0]).pipeline[0]).to.deep.equal({ $match: { publishedAt: { $ne: null } } });
    expect(lookupOf(stages[1])).to.include({ localField: 'localeGroup', foreignField: 'localeGroup' });
    expect(lookupOf(stages[1]).pipeline[0]).to.deep.equal({
      $match: { $and: [{ $expr: { $ne: ['$_id', '$$self'] } }, { publishedAt: { $ne: null } }] },
    });
  });

  it('orders and windows on the server when a window is asked, and counts the total for pagination meta', () => {
    const tags = relation(
      { attribute: 'tags', target: 'api::tag.tag', multiple: true },
      {
        window: { skip: 2, limit: 2, meta: { style: 'page', page: 2, pageSize: 2, withCount: true } },
      },
    );
    const [page, total] = populateStages(plan, { tags });
    const lookup = lookupOf(page);
    expect(lookup.let).to.deep.equal({ ids: { $ifNull: ['$tags', []] } });
    expect(lookup.pipeline.slice(0, 4)).to.deep.equal([
      { $addFields: { __order: { $indexOfArray: ['$$ids', '$_id'] } } },
      { $sort: { __order: 1 } },
      { $skip: 2 },
      { $limit: 2 },
    ]);
    expect(lookupOf(total).pipeline).to.deep.equal([{ $count: 'n' }]);
    expect(lookupOf(total).as).to.equal('__ctags');
    const docs = new Aggregator(
      [
        {
          $lookup: {
            from: 'tags',
            let: lookup.let,
            pipeline: [{ $match: { $expr: { $in: ['$_id', '$$ids'] } } }, ...lookup.pipeline],
            as: 'out',
          },
        },
      ],
      {
        collectionResolver: () => [1, 2, 3, 4, 5].map((id) => ({ _id: id, name: `t${id}` })),
      },
    ).run([{ _id: 1, tags: [5, 3, 1, 4] }]);
    expect((docs[0] as { out: unknown[] }).out).to.deep.equal([
      { _id: 1, name: 't1' },
      { _id: 4, name: 't4' },
    ]);
  });

  it('reaches relations inside components and dynamic zones by dotted paths, and keeps what the formatter reads', () => {
    const map: PopulateMap = {
      seo: {
        kind: 'component',
        attribute: 'seo',
        repeatable: false,
        count: false,
        selection: {
          uid: 'shared.seo',
          fields: ['metaTitle'],
          populate: { image: relation({ attribute: 'image', target: 'plugin::upload.file', media: true }) },
          filter: null,
          sort: null,
          window: null,
        },
      },
      blocks: {
        kind: 'dynamiczone',
        attribute: 'blocks',
        components: {
          'blocks.cta': {
            uid: 'blocks.cta',
            fields: ['label'],
            populate: { target: relation({ attribute: 'target', target: 'api::article.article' }) },
            filter: null,
            sort: null,
            window: null,
          },
        },
      },
      author: relation({ attribute: 'author', target: 'api::author.author' }),
    };
    const stages = populateStages(plan, map);
    expect(stages.map((stage) => lookupOf(stage).localField)).to.deep.equal(['seo.image', 'blocks.target', 'author']);
    expect(projection({ uid: 'api::article.article', fields: ['title'], populate: map })).to.deep.equal({
      _id: 1,
      title: 1,
      seo: 1,
      __pimage: 1,
      blocks: 1,
      __ptarget: 1,
      __pauthor: 1,
      author: 1,
    });
  });

  it("joins the target content-type's collection", () => {
    const stages = populateStages(plan, { author: relation({ attribute: 'author', target: 'api::author.author' }) });
    expect(lookupOf(stages[0]).from).to.equal('authors');
  });
});
