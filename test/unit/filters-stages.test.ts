import { expect } from 'chai';
import { UNRESTRICTED } from '../../src/query/access.js';
import { compileFilters } from '../../src/query/filters/index.js';
import { publicationRegistry } from '../helpers/fixtures.js';

/** The shape of the compiled stages: what indexes can serve, and the lean path of deep filters. */
describe('compileFilters: stage shapes', () => {
  const registry = publicationRegistry();
  const compile = (filters: unknown, uid = 'api::article.article') =>
    compileFilters({ registry, uid, filters, access: UNRESTRICTED });

  it('nothing to filter on: no stages', () => {
    expect(compile(undefined)).to.deep.equal([]);
    expect(compile({})).to.deep.equal([]);
    expect(compile('')).to.deep.equal([]);
  });

  it('fields of the entry, ids and to-one ids go into one first $match', () => {
    expect(compile({ title: 'x', id: { $in: ['1', '2'] }, author: { id: { $eq: '3' } } })).to.deep.equal([
      { $match: { $and: [{ title: { $eq: 'x' } }, { _id: { $in: [1, 2] } }, { author: { $eq: 3 } }] } },
    ]);
  });

  it('a deep filter: $lookup (let + pipeline, joined by _id first, $limit 1), $match on it, then the temp field removed', () => {
    expect(compile({ category: { name: { $eq: 'Technology' } } })).to.deep.equal([
      {
        $lookup: {
          from: 'categories',
          let: { ref: '$category' },
          pipeline: [
            { $match: { $expr: { $eq: ['$_id', '$$ref'] }, name: { $eq: 'Technology' } } },
            { $limit: 1 },
            { $project: { _id: 1 } },
          ],
          as: '__filter0',
        },
      },
      { $match: { __filter0: { $ne: [] } } },
      { $project: { __filter0: 0 } },
    ]);
  });

  it('scalar conditions stay in the first $match before the lookups of deep ones', () => {
    const stages = compile({ kind: 'news', tags: { name: 'GraphQL' } });
    expect(stages[0]).to.deep.equal({ $match: { kind: { $eq: 'news' } } });
    expect(stages[1]).to.have.property('$lookup');
    expect(stages[2]).to.deep.equal({ $match: { __filter0: { $ne: [] } } });
  });

  it('to-many joins with $in on the stored ids; inverse sides on the target field', () => {
    const toMany = compile({ tags: { name: 'x' } })[0] as {
      $lookup: { let: unknown; pipeline: { $match: { $expr: unknown } }[] };
    };
    expect(toMany.$lookup.pipeline[0]?.$match.$expr).to.deep.equal({ $in: ['$_id', '$$refs'] });
    const inverse = compile({ articles: { title: 'x' } }, 'api::author.author')[0] as {
      $lookup: { let: unknown; pipeline: { $match: { $expr: unknown } }[] };
    };
    expect(inverse.$lookup.let).to.deep.equal({ self: '$_id' });
    expect(inverse.$lookup.pipeline[0]?.$match.$expr).to.deep.equal({ $eq: ['$author', '$$self'] });
  });

  it('$or mixing a field and a deep filter: the lookups first, the $or after', () => {
    const stages = compile({ $or: [{ featured: true }, { category: { name: 'Travel' } }] });
    expect(stages.map((stage) => Object.keys(stage)[0])).to.deep.equal(['$lookup', '$match', '$project']);
    expect(stages[1]).to.deep.equal({ $match: { $or: [{ featured: { $eq: true } }, { __filter0: { $ne: [] } }] } });
  });

  it('a value is never read as an operator, and the input is never mutated', () => {
    const filters = Object.freeze({
      title: Object.freeze({ $eq: '{"$gt":""}' }),
      $or: Object.freeze([Object.freeze({ slug: '$where' })]),
    });
    const snapshot = JSON.stringify(filters);
    const stages = compile(filters);
    expect(stages).to.deep.equal([
      { $match: { $and: [{ title: { $eq: '{"$gt":""}' } }, { slug: { $eq: '$where' } }] } },
    ]);
    expect(JSON.stringify(filters)).to.equal(snapshot);
    expect(() => compile({ title: { $eq: { $gt: '' } } })).to.throw('expected a single value');
  });

  it('string operators compile to escaped regular expressions', () => {
    expect(compile({ title: { $containsi: 'a.b*(c)' } })).to.deep.equal([
      { $match: { title: { $regex: /a\.b\*\(c\)/i } } },
    ]);
    expect(compile({ title: { $notContains: 'x' } })).to.deep.equal([{ $match: { title: { $not: /x/, $ne: null } } }]);
  });
});
