import { expect } from 'chai';
import { loadSchemas, Registry } from '../../src/content-types/index.js';
import { ValidationError } from '../../src/errors/index.js';
import { defaultFields, parseFields } from '../../src/query/parse/fields.js';
import { localeFilters, localeMatch } from '../../src/query/parse/locale.js';
import { paginationMeta, parsePagination } from '../../src/query/parse/pagination.js';
import { parsePopulate, type PopulateContext } from '../../src/query/parse/populate.js';
import { PopulateGuard } from '../../src/query/parse/populate-limits.js';
import { parsePublicationState } from '../../src/query/parse/publication-state.js';
import { PUBLICATION_APP } from '../helpers/fixtures.js';

const loaded = loadSchemas(PUBLICATION_APP);
const registry = Registry.build(loaded.contentTypes, loaded.components, { i18n: true });
const article = registry.contentType('api::article.article');
const author = registry.contentType('api::author.author');
if (!article || !author) throw new Error('fixture content-types missing');
const limits = { defaultLimit: 25, maxLimit: 100, withCount: true };

function populateContext(canRead: (uid: string) => boolean = () => true): PopulateContext {
  let n = 0;
  return {
    registry,
    access: { canRead },
    limits,
    nextName: () => String(n++),
    guard: new PopulateGuard({ maxDepth: 10, maxRelations: 100 }),
  };
}

describe('query parse: fields', () => {
  it('defaults to the readable scalars, system attributes included, private ones left out', () => {
    const fields = defaultFields(article);
    expect(fields).to.include.members(['title', 'views', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
    expect(fields).to.not.include.members(['internalNotes', 'author', 'seo', 'blocks', 'localizations']);
    expect(defaultFields(author)).to.not.include('secretCode');
  });

  it('reads the string, indexed and * forms', () => {
    expect(parseFields(article, 'title')).to.deep.equal(['title']);
    expect(parseFields(article, ['title', 'slug'])).to.deep.equal(['title', 'slug']);
    expect(parseFields(article, { 0: 'title', 1: 'id' })).to.deep.equal(['title']);
    expect(parseFields(article, ['*'])).to.deep.equal(defaultFields(article));
  });

  for (const bad of ['', 'title,slug', 'internalNotes', 'seo', 'author', 'nope', { title: '1' }, [['title']], 5]) {
    it(`rejects ${JSON.stringify(bad)}`, () => {
      expect(() => parseFields(article, bad)).to.throw(ValidationError);
    });
  }
});

describe('query parse: pagination', () => {
  it('defaults, caps and adjusts like Strapi', () => {
    expect(parsePagination(undefined, limits)).to.deep.equal({ style: 'page', page: 1, pageSize: 25, withCount: true });
    expect(parsePagination({ page: '0', pageSize: '1000' }, limits)).to.deep.equal({
      style: 'page',
      page: 1,
      pageSize: 100,
      withCount: true,
    });
    expect(parsePagination({ pageSize: '0' }, limits)).to.include({ pageSize: 1 });
    expect(parsePagination({ start: '-3', limit: '0' }, limits)).to.deep.equal({
      style: 'offset',
      start: 0,
      limit: 1,
      withCount: true,
    });
    expect(parsePagination({ limit: '-1', withCount: 'false' }, limits)).to.deep.equal({
      style: 'offset',
      start: 0,
      limit: 100,
      withCount: false,
    });
  });

  it('answers both meta shapes', () => {
    expect(paginationMeta({ style: 'page', page: 3, pageSize: 25, withCount: true }, 0)).to.deep.equal({
      page: 3,
      pageSize: 25,
      pageCount: 0,
      total: 0,
    });
    expect(paginationMeta({ style: 'page', page: 1, pageSize: 10, withCount: true }, 34)).to.deep.equal({
      page: 1,
      pageSize: 10,
      pageCount: 4,
      total: 34,
    });
    expect(paginationMeta({ style: 'offset', start: 2, limit: 3, withCount: false }, null)).to.deep.equal({
      start: 2,
      limit: 3,
    });
  });

  for (const bad of [{ page: 'abc' }, { pageSize: '1.5' }, { withCount: 'yes' }, { start: 'x', limit: '2' }]) {
    it(`rejects ${JSON.stringify(bad)}`, () => {
      expect(() => parsePagination(bad, limits)).to.throw(ValidationError);
    });
  }
});

describe('query parse: pagination styles', () => {
  it("rejects mixing page and offset pagination with Strapi's ValidationError", () => {
    expect(() => parsePagination({ page: '1', start: '0' }, limits)).to.throw(
      ValidationError,
      'Invalid pagination parameters. Expected either start/limit or page/pageSize',
    );
  });

  it('ignores what Strapi ignores: a pagination that is not an object, unknown keys', () => {
    const first = { style: 'page', page: 1, pageSize: 25, withCount: true };
    for (const ignored of ['x', ['1'], { foo: '1' }]) expect(parsePagination(ignored, limits)).to.deep.equal(first);
  });
});

describe('query parse: publicationState and locale', () => {
  it('reads live/preview and rejects anything else', () => {
    expect(parsePublicationState(undefined)).to.equal('live');
    expect(parsePublicationState('preview')).to.equal('preview');
    expect(() => parsePublicationState('draft')).to.throw(ValidationError);
    expect(() => parsePublicationState(['live'])).to.throw(ValidationError);
  });

  it('filters localized types on the default, asked or no locale', () => {
    const i18n = {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'en' },
        { code: 'fr', name: 'fr' },
      ],
    };
    expect(localeMatch(article, i18n, undefined)).to.deep.equal({ locale: 'en' });
    expect(localeMatch(article, i18n, 'fr')).to.deep.equal({ locale: 'fr' });
    expect(localeMatch(article, i18n, 'all')).to.deep.equal({});
    expect(localeMatch(author, i18n, 'fr')).to.deep.equal({});
    expect(localeMatch(article, i18n, '')).to.deep.equal({ locale: '' });
    // a list or operators: a filter on locale instead
    expect(localeMatch(article, i18n, ['fr'])).to.deep.equal({});
    expect(localeFilters(article, i18n, ['fr'])).to.deep.equal({ locale: ['fr'] });
    expect(localeFilters(author, i18n, ['fr'])).to.equal(undefined);
  });
});

describe('query parse: populate', () => {
  it('expands * to every relation, component, dynamic zone and localizations, one level', () => {
    const map = parsePopulate(populateContext(), article, '*', 'live');
    expect(Object.keys(map)).to.have.members([
      'author',
      'category',
      'tags',
      'reviewer',
      'seo',
      'links',
      'blocks',
      'localizations',
    ]);
    const seo = map.seo;
    expect(seo?.kind === 'component' && seo.selection.populate).to.deep.equal({});
  });

  it('reads comma, indexed, object and dotted forms alike', () => {
    for (const raw of ['author,tags', ['author', 'tags'], { author: '*', tags: 'true' }]) {
      expect(Object.keys(parsePopulate(populateContext(), article, raw, 'live'))).to.deep.equal(['author', 'tags']);
    }
    const dotted = parsePopulate(populateContext(), article, 'seo.metaSocial', 'live').seo;
    expect(dotted?.kind === 'component' && Object.keys(dotted.selection.populate)).to.deep.equal(['metaSocial']);
  });

  it('ignores unknown keys, scalars, false values, and relations the caller cannot read', () => {
    expect(parsePopulate(populateContext(), article, { nope: '*', title: '*', author: 'false' }, 'live')).to.deep.equal(
      {},
    );
    const map = parsePopulate(
      populateContext((uid) => uid !== 'api::author.author'),
      article,
      ['author', 'tags'],
      'live',
    );
    expect(Object.keys(map)).to.deep.equal(['tags']);
  });

  it('carries per-level fields, publicationState, start/limit and pagination', () => {
    const map = parsePopulate(
      populateContext(),
      article,
      {
        tags: { fields: ['name'], limit: '1', publicationState: 'preview' },
        localizations: { pagination: { pageSize: '5' } },
      },
      'live',
    );
    const tags = map.tags;
    expect(
      tags?.kind === 'relation' && { fields: tags.selection.fields, window: tags.window, state: tags.publicationState },
    ).to.deep.equal({
      fields: ['name'],
      window: { skip: 0, limit: 1, meta: null },
      state: 'preview',
    });
    const localizations = map.localizations;
    expect(localizations?.kind === 'relation' && localizations.window?.meta).to.deep.equal({
      style: 'page',
      page: 1,
      pageSize: 5,
      withCount: true,
    });
  });

  it('rejects malformed nested values', () => {
    expect(() => parsePopulate(populateContext(), article, { author: { fields: ['secretCode'] } }, 'live')).to.throw(
      ValidationError,
    );
    expect(() => parsePopulate(populateContext(), article, { tags: { limit: 'x' } }, 'live')).to.throw(ValidationError);
    expect(() => parsePopulate(populateContext(), article, [{ author: true }], 'live')).to.throw(ValidationError);
  });
});
