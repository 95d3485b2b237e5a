import { expect } from 'chai';
import qs from 'qs';
import { AppError } from '../../src/errors/index.js';
import type { QueryAccess } from '../../src/query/access.js';
import { UNRESTRICTED } from '../../src/query/access.js';
import { compileSort } from '../../src/query/sort/index.js';
import { publicationRegistry } from '../helpers/fixtures.js';

describe('compileSort', () => {
  const registry = publicationRegistry();
  const ARTICLE = 'api::article.article';
  const compile = (sort: unknown, uid = ARTICLE, access: QueryAccess = UNRESTRICTED) =>
    compileSort({ registry, uid, sort, access });
  const sortOf = (query: string) => compile(qs.parse(query).sort).sort;

  describe('forms', () => {
    it('no sort: storage order (_id ascending)', () => {
      expect(compile(undefined)).to.deep.equal({ lookups: [], sort: { _id: 1 }, cleanup: [] });
    });
    it('a field, with or without a direction, in any case', () => {
      expect(sortOf('sort=title')).to.deep.equal({ title: 1, _id: 1 });
      expect(sortOf('sort=title:desc')).to.deep.equal({ title: -1, _id: 1 });
      expect(sortOf('sort=title:DESC')).to.deep.equal({ title: -1, _id: 1 });
    });
    it('comma lists, arrays, indexed objects and the object form', () => {
      expect(sortOf('sort=kind:asc,readingTime:desc')).to.deep.equal({ kind: 1, readingTime: -1, _id: 1 });
      expect(sortOf('sort[0]=kind:asc&sort[1]=readingTime:desc')).to.deep.equal({ kind: 1, readingTime: -1, _id: 1 });
      expect(compile({ 1: 'readingTime:desc', 0: 'kind' }).sort).to.deep.equal({ kind: 1, readingTime: -1, _id: 1 });
      expect(sortOf('sort[title]=desc')).to.deep.equal({ title: -1, _id: 1 });
    });
    it('id and timestamps; an explicit id is the last key', () => {
      expect(sortOf('sort=id:desc')).to.deep.equal({ _id: -1 });
      expect(sortOf('sort[0]=createdAt:desc&sort[1]=id')).to.deep.equal({ createdAt: -1, _id: 1 });
      expect(sortOf('sort=publishedAt')).to.deep.equal({ publishedAt: 1, _id: 1 });
    });
    it('fields of single components sort in place; through a repeatable one, once per component', () => {
      expect(sortOf('sort=seo.metaTitle:desc')).to.deep.equal({ 'seo.metaTitle': -1, _id: 1 });
      const compiled = compile('seo.metaSocial.network');
      expect(compiled.sort).to.deep.equal({ __sort0: 1, _id: 1 });
      expect(compiled.lookups).to.deep.equal([
        { $addFields: { __sort0: '$seo.metaSocial.network' } },
        { $unwind: { path: '$__sort0', preserveNullAndEmptyArrays: true } },
      ]);
    });
  });

  describe('through relations', () => {
    it('a to-one field: one $lookup, then the value unwrapped', () => {
      const compiled = compile('author.name:desc');
      expect(compiled.sort).to.deep.equal({ __sort0: -1, _id: 1 });
      expect(compiled.lookups).to.deep.equal([
        {
          $lookup: {
            from: 'authors',
            let: { ref: '$author' },
            pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$ref'] } } }, { $project: { _id: 0, value: '$name' } }],
            as: '__sort0',
          },
        },
        { $addFields: { __sort0: { $arrayElemAt: ['$__sort0.value', 0] } } },
      ]);
      expect(compiled.cleanup).to.deep.equal([{ $project: { __sort0: 0 } }]);
    });
    it('the object form and nested relations', () => {
      expect(compile({ author: { name: 'asc' } }).sort).to.deep.equal({ __sort0: 1, _id: 1 });
      const nested = compile('author.profile.handle');
      expect(nested.lookups).to.have.length(2);
    });
    it('to-many relations: the list of values (smallest ascending, largest descending)', () => {
      expect(compile('tags.name:asc').lookups[1]).to.deep.equal({ $addFields: { __sort0: '$__sort0.value' } });
    });
  });

  describe('rejected input: 400 ValidationError', () => {
    const rejected = (sort: unknown, uid = ARTICLE, access: QueryAccess = UNRESTRICTED): AppError => {
      try {
        compile(sort, uid, access);
      } catch (error) {
        expect(error).to.be.instanceOf(AppError);
        expect((error as AppError).status).to.equal(400);
        expect((error as AppError).name).to.equal('ValidationError');
        return error as AppError;
      }
      throw new Error(`expected ${JSON.stringify(sort)} to be rejected`);
    };
    it('an invalid direction (case 267)', () => {
      rejected('title:sideways');
      rejected({ title: 'up' });
    });
    it("unknown, private and password fields, with Strapi's message", () => {
      expect(rejected('nope').message).to.equal('Invalid parameter nope');
      expect(rejected('internalNotes:asc').message).to.equal('Invalid parameter internalNotes');
      expect(rejected('author.secretCode').message).to.equal('Invalid parameter secretCode');
      expect(rejected('secretCode', 'api::author.author').message).to.equal('Invalid parameter secretCode');
    });
    it('relations without a field, dynamic zones, fields below a scalar, empty keys', () => {
      rejected('author');
      rejected('blocks.id');
      rejected('title.length');
      rejected('seo');
      rejected(':desc');
      rejected('.title');
      rejected([['title']]);
      rejected(5);
    });
    it('empty items and text after a second colon are ignored, as Strapi 4.26 reads them', () => {
      expect(compile('title,', ARTICLE).sort).to.deep.equal({ title: 1, _id: 1 });
      expect(compile('title:desc:x', ARTICLE).sort).to.deep.equal({ title: -1, _id: 1 });
    });
    it('a relation whose target the caller cannot read', () => {
      const noAuthors: QueryAccess = { canRead: (uid) => uid !== 'api::author.author' };
      expect(rejected('author.name', ARTICLE, noAuthors).message).to.equal('Invalid parameter author');
      expect(compile('category.name', ARTICLE, noAuthors).sort).to.deep.equal({ __sort0: 1, _id: 1 });
    });
  });
});
