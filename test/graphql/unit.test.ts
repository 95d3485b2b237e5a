import { expect } from 'chai';
import { parse, specifiedRules, validate, buildSchema as fromSdl } from 'graphql';
import { loadSchemas, Registry } from '../../src/content-types/index.js';
import { depthLimitRule } from '../../src/plugins/graphql/depth-limit.js';
import { scalarFilterFields, toRestFilters } from '../../src/plugins/graphql/filters.js';
import { findOneQueryName, findQueryName, typeName } from '../../src/plugins/graphql/naming.js';
import { graphqlPaginationMeta, graphqlWindow } from '../../src/plugins/graphql/pagination.js';
import { LongScalar } from '../../src/plugins/graphql/scalars.js';
import { usersPermissionsContentTypes } from '../../src/plugins/users-permissions/content-types.js';
import { PUBLICATION_APP } from '../helpers/server.js';
import { loadConfig } from '../../src/config/index.js';
import { graphqlConfig } from '../../src/plugins/graphql/config.js';
import { ExtensionService } from '../../src/plugins/graphql/extension.js';
import { buildSchema } from '../../src/plugins/graphql/schema.js';
import { uploadPlugin } from '../../src/plugins/upload/index.js';

/** Pure internals of the GraphQL layer: naming, filter translation, depth counting, pagination meta, scalars. */
describe('GraphQL internals', () => {
  const loaded = loadSchemas(PUBLICATION_APP);
  const registry = Registry.build([...usersPermissionsContentTypes(), ...loaded.contentTypes], loaded.components, {
    i18n: true,
  });
  const schemaOf = (uid: string) => {
    const schema = registry.schema(uid);
    if (!schema) throw new Error(uid);
    return schema;
  };

  it('names types and queries as Strapi v4', () => {
    expect(typeName(schemaOf('api::author-profile.author-profile'))).to.equal('AuthorProfile');
    expect(typeName(schemaOf('plugin::users-permissions.user'))).to.equal('UsersPermissionsUser');
    expect(typeName(schemaOf('shared.meta-social'))).to.equal('ComponentSharedMetaSocial');
    expect(typeName(schemaOf('blocks.rich-text'))).to.equal('ComponentBlocksRichText');
    const profile = registry.contentType('api::author-profile.author-profile');
    const user = registry.contentType('plugin::users-permissions.user');
    expect(profile && [findOneQueryName(profile), findQueryName(profile)]).to.deep.equal([
      'authorProfile',
      'authorProfiles',
    ]);
    expect(user && [findOneQueryName(user), findQueryName(user)]).to.deep.equal([
      'usersPermissionsUser',
      'usersPermissionsUsers',
    ]);
  });

  it('derives scalar filter inputs from the operator table', () => {
    const fields = scalarFilterFields('Int');
    expect(fields).to.include({
      eq: 'Int',
      in: '[Int]',
      between: '[Int]',
      null: 'Boolean',
      not: 'IntFilterInput',
      and: '[Int]',
    });
    expect(Object.keys(fields)).to.have.length(22);
    expect(fields).not.to.have.property('startsWithi');
  });

  it('translates filters into the REST filters object through relations and components', () => {
    const article = schemaOf('api::article.article');
    expect(
      toRestFilters(registry, article, {
        title: { containsi: 'x', not: { null: true } },
        author: { name: { eq: 'A' }, profile: { handle: { in: ['h'] } } },
        seo: { metaSocial: { network: { eq: 'Twitter' } } },
        or: [{ id: { eq: '1' } }, { views: { gte: 5 } }],
      }),
    ).to.deep.equal({
      title: { $containsi: 'x', $not: { $null: true } },
      author: { name: { $eq: 'A' }, profile: { handle: { $in: ['h'] } } },
      seo: { metaSocial: { network: { $eq: 'Twitter' } } },
      $or: [{ id: { $eq: '1' } }, { views: { $gte: 5 } }],
    });
  });

  it('counts depth without the data/attributes/meta envelopes, following fragments', () => {
    const schema = fromSdl('type Q { a: A } type A { data: A attributes: A meta: A b: A x: Int } schema { query: Q }');
    const errors = (query: string, max: number) =>
      validate(schema, parse(query), [...specifiedRules, depthLimitRule(max)]).map((e) => e.message);
    expect(errors('{ a { data { attributes { b { data { x } } } } } }', 2)).to.deep.equal([]);
    expect(errors('{ a { data { attributes { b { data { x } } } } } }', 1)).to.deep.equal([
      "'' exceeds maximum operation depth of 1",
    ]);
    expect(errors('query Named { a { ...F } } fragment F on A { b { b { x } } }', 2)).to.deep.equal([
      "'Named' exceeds maximum operation depth of 2",
    ]);
    expect(errors('{ __schema { types { fields { type { ofType { name } } } } } }', 1)).to.deep.equal([]);
  });

  it("reads pagination as Strapi's GraphQL plugin (withDefaultPagination) and its meta formula", () => {
    const limits = { defaultLimit: 10, maxLimit: -1, amountLimit: 100 };
    expect(graphqlWindow({ start: 5, limit: 3 }, limits)).to.deep.equal({ start: 5, limit: 3, readLimit: 3 });
    expect(graphqlWindow({ page: 3 }, limits)).to.deep.equal({ start: 2, limit: 1, readLimit: 1 });
    expect(graphqlWindow({ start: 7 }, limits)).to.deep.equal({ start: 7, limit: 10, readLimit: 10 });
    expect(graphqlWindow({ limit: -1 }, limits)).to.deep.equal({ start: 0, limit: -1, readLimit: 100 });
    expect(graphqlWindow({ limit: -1 }, { ...limits, maxLimit: 20 })).to.deep.equal({
      start: 0,
      limit: 20,
      readLimit: 20,
    });
    expect(graphqlWindow({ pageSize: 0 }, limits).limit).to.equal(1);
    expect(() => graphqlWindow({ page: 1, limit: 2 }, limits)).to.throw('Cannot use both page & offset pagination');
    const all = graphqlWindow({ start: 4, limit: -1 }, limits);
    expect(graphqlPaginationMeta(all, 34)).to.deep.equal({ total: 34, page: 1, pageSize: 30, pageCount: 1 });
    expect(graphqlPaginationMeta(all, 250)).to.deep.equal({ total: 250, page: 1, pageSize: 100, pageCount: 3 });
    expect(graphqlPaginationMeta(graphqlWindow({ start: 5, limit: 3 }, limits), 34)).to.deep.equal({
      total: 34,
      page: 2,
      pageSize: 3,
      pageCount: 12,
    });
  });

  it('reads Long values as safe numbers or decimal strings', () => {
    expect(LongScalar.parseValue('5000000000')).to.equal(5000000000);
    expect(LongScalar.parseValue('90071992547409930')).to.equal('90071992547409930');
    expect(LongScalar.serialize('3000123457')).to.equal(3000123457);
    // graphql-scalars' message, as Strapi's
    expect(() => LongScalar.parseValue('1.5')).to.throw('Cannot convert 1.5 to a BigInt');
  });

  it('builds a schema for other content models: media, a localized single type, a type without attributes of note', async () => {
    const config = await loadConfig(PUBLICATION_APP);
    const extra = [
      {
        uid: 'api::setting.setting',
        source: 'inline',
        schema: {
          kind: 'singleType' as const,
          collectionName: 'settings',
          info: { singularName: 'setting', pluralName: 'settings', displayName: 'Setting' },
          pluginOptions: { i18n: { localized: true } },
          attributes: {
            greeting: { type: 'string' as const },
            logo: { type: 'media' as const },
            gallery: { type: 'media' as const, multiple: true },
          },
        },
      },
    ];
    const registry = Registry.build(
      [
        ...(uploadPlugin.contentTypes?.(config) ?? []),
        ...usersPermissionsContentTypes(),
        ...loaded.contentTypes,
        ...extra,
      ],
      loaded.components,
      { i18n: true },
    );
    const schema = buildSchema({
      registry,
      gql: graphqlConfig(config),
      extension: new ExtensionService(),
      usersPermissions: true,
      i18n: true,
    });
    const setting = schema.getType('Setting');
    expect(setting && 'getFields' in setting ? Object.keys(setting.getFields()) : []).to.include.members([
      'greeting',
      'logo',
      'gallery',
      'localizations',
      'locale',
    ]);
    expect(
      schema
        .getQueryType()
        ?.getFields()
        .setting?.args.map((a) => a.name),
    ).to.deep.equal(['locale']);
  });
});
