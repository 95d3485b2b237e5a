import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { at, gql } from './helpers.js';

/**
 * What a plugin that declares queries like the generated ones reads of the GraphQL plugin
 * (strapi-plugin-comments does all of this): `internals.args`, `builders.filters.operators`, the
 * `utils` naming, mappers and attribute predicates (naming its own schema object, which has no uid,
 * as Strapi names it), and Strapi's spelling `hasFiltersEnabeld`.
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'internals', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'src/api/book/content-types/book/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'books',
    info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, pages: { type: 'integer' } },
  }),
  'src/index.js': `
    const noteView = {
      info: { singularName: 'note-view' },
      attributes: {
        title: { type: 'string' },
        score: { type: 'integer' },
        book: { type: 'relation', relation: 'manyToOne', target: 'api::book.book' },
        anything: { type: 'relation', relation: 'morphToMany' },
      },
    };
    module.exports = {
      register({ strapi }) {
        strapi.plugin('graphql').service('extension').use(({ nexus, strapi }) => {
          const { args, helpers } = strapi.plugin('graphql').service('internals');
          const utils = strapi.plugin('graphql').service('utils');
          const { operators } = strapi.plugin('graphql').service('builders').filters;
          const filtersName = utils.naming.getFiltersInputTypeName(noteView);
          return {
            types: [
              nexus.inputObjectType({
                name: filtersName,
                definition(t) {
                  for (const [name, attribute] of Object.entries(noteView.attributes)) {
                    if (utils.attributes.isStrapiScalar(attribute)) {
                      const scalar = utils.mappers.strapiScalarToGraphQLScalar(attribute.type);
                      t.field(name, { type: utils.naming.getScalarFilterInputTypeName(scalar) });
                    } else if (utils.attributes.isRelation(attribute) && !utils.attributes.isMorphRelation(attribute)) {
                      t.field(name, { type: utils.naming.getFiltersInputTypeName(strapi.getModel(attribute.target)) });
                    }
                  }
                  for (const operator of [operators.and, operators.or, operators.not]) operator.add(t, filtersName);
                  operators.between.add(t, 'Int');
                },
              }),
              nexus.extendType({
                type: 'Query',
                definition(t) {
                  t.field('describeArgs', {
                    type: 'String',
                    args: { filters: filtersName, pagination: args.PaginationArg, sort: args.SortArg, publicationState: args.PublicationStateArg },
                    resolve: (_parent, received) =>
                      JSON.stringify({
                        received,
                        strapiOperators: Object.values(operators).map((operator) => operator.strapiOperator),
                        scalars: helpers.getEnabledScalars(),
                        titleFilters: strapi.plugin('graphql').service('extension').shadowCRUD('api::book.book').field('title').hasFiltersEnabeld(),
                      }),
                  });
                },
              }),
            ],
            resolversConfig: { 'Query.describeArgs': { auth: false } },
          };
        });
      },
    };
  `,
};

describe("GraphQL internals plugins build their own queries with (strapi.plugin('graphql').service('internals'))", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  it('declares a filters input from utils and the operators, named as Strapi names a schema without uid', async () => {
    const res = await gql(
      service,
      '{ __type(name: "NoteViewFiltersInput") { inputFields { name type { name kind ofType { name } } } } }',
    );
    const fields = at(res.body, 'data.__type.inputFields') as {
      name: string;
      type: { name: string | null; ofType: { name: string } | null };
    }[];
    expect(fields.map((f) => [f.name, f.type.name ?? `[${f.type.ofType?.name}]`])).to.deep.equal([
      ['title', 'StringFilterInput'],
      ['score', 'IntFilterInput'],
      ['book', 'BookFiltersInput'],
      ['and', '[NoteViewFiltersInput]'],
      ['or', '[NoteViewFiltersInput]'],
      ['not', 'NoteViewFiltersInput'],
      ['between', '[Int]'],
    ]);
  });

  it("gives the generated queries' arguments with their defaults, the operators and the filterable scalars", async () => {
    const res = await gql(
      service,
      '{ describeArgs(filters: { title: { containsi: "x" }, or: [{ score: { gt: 3 } }], book: { pages: { lt: 5 } } }) }',
    );
    expect(res.body.errors).to.equal(undefined);
    const described = JSON.parse(String(at(res.body, 'data.describeArgs')));
    expect(described.received).to.deep.equal({
      filters: { title: { containsi: 'x' }, or: [{ score: { gt: 3 } }], book: { pages: { lt: 5 } } },
      pagination: {},
      sort: [],
      publicationState: 'live',
    });
    expect(described.strapiOperators).to.include.members([
      '$and',
      '$or',
      '$not',
      '$eq',
      '$containsi',
      '$between',
      '$null',
    ]);
    expect(described.scalars).to.deep.equal([
      'ID',
      'Boolean',
      'String',
      'Int',
      'Long',
      'Float',
      'Date',
      'Time',
      'DateTime',
      'JSON',
    ]);
    expect(described.titleFilters).to.equal(true);
  });
});
