import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { at, gql } from './helpers.js';

/**
 * A custom resolver as Strapi's docs write one: the builders service's transformArgs turns the
 * GraphQL arguments into entity service parameters, the format service answers the entries.
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'builders', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'src/api/book/content-types/book/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'books',
    info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
    attributes: { title: { type: 'string' }, pages: { type: 'integer' } },
  }),
  'src/index.js': `
    const seen = [];
    module.exports = {
      register({ strapi }) {
        strapi.plugin('graphql').service('extension').use(({ strapi }) => ({
          typeDefs: \`type Query {
            searchBooks(filters: BookFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): BookEntityResponseCollection
            lastParams: String
          }\`,
          resolvers: {
            Query: {
              async searchBooks(parent, args) {
                const { transformArgs } = strapi.plugin('graphql').service('builders').utils;
                const { toEntityResponseCollection } = strapi.plugin('graphql').service('format').returnTypes;
                const params = transformArgs(args, { contentType: strapi.contentTypes['api::book.book'], usePagination: true });
                seen.push(params);
                const books = await strapi.entityService.findMany('api::book.book', params);
                return toEntityResponseCollection(books, { args, resourceUID: 'api::book.book' });
              },
              lastParams: () => JSON.stringify(seen[seen.length - 1]),
            },
          },
          resolversConfig: { 'Query.searchBooks': { auth: false }, 'Query.lastParams': { auth: false } },
        }));
      },
      async bootstrap({ strapi }) {
        for (const [title, pages] of [['Dune', 612], ['Emma', 474], ['Dracula', 418], ['Ulysses', 730]])
          await strapi.entityService.create('api::book.book', { data: { title, pages } });
      },
    };
  `,
};

describe("GraphQL builders service (strapi.plugin('graphql').service('builders'))", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  const lastParams = async () => JSON.parse(String(at((await gql(service, '{ lastParams }')).body, 'data.lastParams')));

  it('turns GraphQL filters and pagination into entity service parameters', async () => {
    const res = await gql(
      service,
      `{ searchBooks(filters: { title: { startsWith: "D" }, or: [{ pages: { gt: 500 } }, { pages: { lt: 420 } }] },
          pagination: { page: 1, pageSize: 5 }, sort: ["pages:desc"]) { data { id attributes { title } } } }`,
    );
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    expect(await lastParams()).to.deep.equal({
      filters: { title: { $startsWith: 'D' }, $or: [{ pages: { $gt: 500 } }, { pages: { $lt: 420 } }] },
      sort: ['pages:desc'],
      start: 0,
      limit: 5,
    });
    const titles = (at(res.body, 'data.searchBooks.data') as Array<{ attributes: { title: string } }>).map(
      (book) => book.attributes.title,
    );
    expect(titles).to.deep.equal(['Dune', 'Dracula']);
  });

  it('gives the default page without pagination, and a pagination error for page and offset mixed', async () => {
    await gql(service, '{ searchBooks { data { id } } }');
    expect(await lastParams()).to.deep.equal({ sort: [], start: 0, limit: 10 });
    await gql(service, '{ searchBooks(pagination: { page: 2, pageSize: 1 }) { data { id } } }');
    expect(await lastParams()).to.deep.include({ start: 1, limit: 1 });
    const mixed = await gql(service, '{ searchBooks(pagination: { page: 1, limit: 2 }) { data { id } } }');
    expect(mixed.body.errors?.[0]?.message).to.equal('Cannot use both page & offset pagination in the same query');
  });
});
