import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadSchemas, Registry, SchemaError, type ContentTypeSchema } from '../../src/content-types/index.js';
import { PUBLICATION_APP } from '../helpers/fixtures.js';

function article(
  attributes: ContentTypeSchema['attributes'],
  extra: Partial<ContentTypeSchema> = {},
): ContentTypeSchema {
  return {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    attributes,
    ...extra,
  };
}

function build(
  schemas: Record<string, ContentTypeSchema>,
  components: Record<string, ContentTypeSchema['attributes']> = {},
) {
  return Registry.build(
    Object.entries(schemas).map(([uid, schema]) => ({ uid, schema, source: `${uid}.json` })),
    Object.entries(components).map(([uid, attributes]) => ({
      uid,
      schema: { info: { displayName: uid }, attributes },
      source: `${uid}.json`,
    })),
    { i18n: true },
  );
}

describe('content-type registry', () => {
  it('loads the publication app and describes its relations', () => {
    const loaded = loadSchemas(PUBLICATION_APP);
    const registry = Registry.build(loaded.contentTypes, loaded.components, { i18n: true });
    expect(registry.byPluralName('articles')?.uid).to.equal('api::article.article');
    expect(registry.bySingularName('homepage')?.kind).to.equal('singleType');
    expect(registry.byPluralName('homepages')).to.equal(undefined);
    const article = registry.contentType('api::article.article');
    expect(article?.localized).to.equal(true);
    expect(article?.draftAndPublish).to.equal(true);
    expect(Object.keys(article?.attributes ?? {})).to.include.members([
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
      'localizations',
    ]);
    expect(registry.relation('api::article.article', 'tags')).to.deep.equal({
      attribute: 'tags',
      target: 'api::tag.tag',
      multiple: true,
      stored: true,
    });
    expect(registry.relation('api::author.author', 'articles')).to.deep.include({
      stored: false,
      multiple: true,
      inverse: { field: 'author', multiple: false },
    });
    expect(registry.relation('api::tag.tag', 'articles')).to.deep.include({
      stored: false,
      inverse: { field: 'tags', multiple: true },
    });
    expect(registry.relation('api::article.article', 'localizations')).to.deep.include({
      localizations: true,
      stored: false,
    });
    expect(registry.component('shared.seo')?.attributes.metaSocial).to.deep.include({
      type: 'component',
      repeatable: true,
    });
  });

  it('accepts a Strapi v4 project layout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-strapi-'));
    mkdirSync(join(dir, 'src/api/post/content-types/post'), { recursive: true });
    mkdirSync(join(dir, 'src/components/shared'), { recursive: true });
    writeFileSync(
      join(dir, 'src/api/post/content-types/post/schema.json'),
      JSON.stringify({
        kind: 'collectionType',
        collectionName: 'posts',
        info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
        attributes: { title: { type: 'string' }, seo: { type: 'component', component: 'shared.seo' } },
      }),
    );
    writeFileSync(
      join(dir, 'src/components/shared/seo.json'),
      JSON.stringify({ info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } }),
    );
    const loaded = loadSchemas(dir);
    const registry = Registry.build(loaded.contentTypes, loaded.components, { i18n: false });
    expect(registry.byPluralName('posts')?.uid).to.equal('api::post.post');
    expect(registry.component('shared.seo')).to.not.equal(undefined);
  });

  it('names the file of an invalid JSON schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-bad-'));
    mkdirSync(join(dir, 'schemas/api'), { recursive: true });
    writeFileSync(join(dir, 'schemas/api/post.json'), '{ not json');
    expect(() => loadSchemas(dir)).to.throw(SchemaError, /post\.json: invalid JSON/);
  });

  const invalid: Array<[string, () => unknown, RegExp]> = [
    [
      'an unknown attribute type',
      () => build({ 'api::article.article': article({ title: { type: 'strin' } as never }) }),
      /"title".*unknown attribute type "strin"/,
    ],
    [
      'a reserved attribute name',
      () => build({ 'api::article.article': article({ createdAt: { type: 'string' } }) }),
      /"createdAt".*reserved/,
    ],
    [
      'an unknown relation target',
      () =>
        build({
          'api::article.article': article({
            author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
          }),
        }),
      /"author".*unknown relation target/,
    ],
    [
      'an unknown component',
      () => build({ 'api::article.article': article({ seo: { type: 'component', component: 'shared.seo' } }) }),
      /"seo".*unknown component "shared.seo"/,
    ],
    [
      'an unknown dynamic zone component',
      () => build({ 'api::article.article': article({ blocks: { type: 'dynamiczone', components: ['blocks.x'] } }) }),
      /"blocks".*unknown component "blocks.x"/,
    ],
    [
      'an enumeration without values',
      () => build({ 'api::article.article': article({ kind: { type: 'enumeration', enum: [] } }) }),
      /"kind".*enum/,
    ],
    [
      'a one-sided inversedBy',
      () =>
        build({
          'api::article.article': article({
            author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
          }),
          'api::author.author': {
            ...article({ name: { type: 'string' } }),
            collectionName: 'authors',
            info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
          },
        }),
      /"author".*inversedBy "articles"/,
    ],
    [
      'duplicate plural names',
      () =>
        build({
          'api::article.article': article({ title: { type: 'string' } }),
          'api::post.post': { ...article({ title: { type: 'string' } }), collectionName: 'posts' },
        }),
      /api::post.post.json: name "articles" is already used by api::article.article/,
    ],
    [
      'a bad kind',
      () => build({ 'api::article.article': article({}, { kind: 'listType' as never }) }),
      /"kind" must be/,
    ],
    [
      "a collection the service keeps (the id counters')",
      () =>
        build({ 'api::article.article': { ...article({ title: { type: 'string' } }), collectionName: 'counters' } }),
      /collectionName "counters" is the name of a collection the service keeps/,
    ],
  ];
  for (const [what, fn, message] of invalid) {
    it(`rejects ${what}, naming the file and attribute`, () => {
      expect(fn).to.throw(SchemaError, message);
    });
  }
});
