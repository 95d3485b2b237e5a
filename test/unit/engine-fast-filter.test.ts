import { Long } from 'bson';
import { expect } from 'chai';
import { Query } from 'mingo/query';
import { compileFastFilter } from '../../src/engine/query/fast-filter.js';
import { compileFilter } from '../../src/engine/query/filter.js';
import { mingoOptions } from '../../src/engine/query/operators.js';
import { normalizeRegexes } from '../../src/engine/query/regex.js';

// The engine's native filter fast path must give the general matcher's answer on every document.
const docs: Array<Record<string, unknown>> = [
  { _id: 1, s: 'en', n: 5, d: new Date('2024-01-02'), b: true },
  { _id: 2, s: 'fr', n: 5.5, d: null, b: false },
  { _id: 3, n: null },
  { _id: 4, s: ['en', 'de'], n: [1, 9], d: new Date('2023-12-31') },
  { _id: 5, s: 'Éte', n: Long.fromNumber(5), b: 1 },
  { _id: 6, s: { nested: 'en' }, n: '5', d: '2024-01-02' },
  { _id: 7, s: 'é', n: -0, d: new Date('2024-01-02') },
];

const filters: Array<Record<string, unknown>> = [
  { s: 'en' },
  { s: { $eq: 'en' } },
  { s: { $ne: 'en' } },
  { s: null },
  { s: { $ne: null } },
  { s: { $exists: false } },
  { s: { $in: ['fr', null] } },
  { s: { $nin: ['en', 'fr'] } },
  { s: { $gt: 'e' } },
  { s: { $lte: 'fr' } },
  { s: { $regex: '^é', $options: 'i' } },
  { s: /^e/ },
  { n: 5 },
  { n: { $gte: 5 } },
  { n: { $lt: 5.5, $gt: -1 } },
  { n: { $in: [5, 9] } },
  { n: { $gt: null } },
  { n: { $gte: null } },
  { d: { $lt: new Date('2024-01-02') } },
  { d: { $ne: new Date('2024-01-02') } },
  { d: { $gte: new Date('2024-01-01') } },
  { b: true },
  { b: { $ne: false } },
  { $or: [{ s: 'fr' }, { n: { $gt: 5 } }] },
  { $and: [{ s: { $ne: null } }, { n: { $lte: 5 } }] },
  { s: 'en', n: 5 },
  { $expr: { $eq: ['$s', 'en'] } },
  { $expr: { $gt: ['$n', 5] } },
  { $expr: { $lt: [5, '$n'] } },
  { $expr: { $lte: ['$d', new Date('2024-01-02')] } },
  { $expr: { $ne: ['$b', true] } },
  { $expr: { $gte: ['$s', '$n'] } },
  { $and: [{ $expr: { $ne: ['$_id', 3] } }, { s: { $ne: null } }] },
];

describe('engine: native filter fast path', () => {
  for (const filter of filters) {
    it(`answers like the general matcher: ${JSON.stringify(filter)}`, () => {
      const normalized = normalizeRegexes(filter);
      expect(compileFastFilter(normalized), 'this shape is on the fast path').to.be.a('function');
      const general = new Query(normalized, mingoOptions({}));
      const predicate = compileFilter(filter);
      expect(docs.filter((d) => predicate(d)).map((d) => d._id)).to.deep.equal(
        docs.filter((d) => general.test(d)).map((d) => d._id),
      );
    });
  }

  it('leaves other shapes to the general matcher', () => {
    for (const filter of [
      { 'a.b': 1 },
      { s: { $not: { $eq: 'en' } } },
      { s: { $elemMatch: { $eq: 'en' } } },
      { $expr: { $eq: ['$s.nested', 'en'] } },
      { $expr: { $in: ['$s', ['en']] } },
      { $expr: { $eq: ['$$ROOT', 1] } },
      { s: { a: 1 } },
    ]) {
      expect(compileFastFilter(normalizeRegexes(filter)), JSON.stringify(filter)).to.equal(undefined);
    }
  });
});
