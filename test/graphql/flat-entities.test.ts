import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { gql } from './helpers.js';

/**
 * A custom resolver answering entries as `strapi.entityService` reads them (flat) for a
 * `<Type>Entity` return type: Strapi's `attributes` resolver is the identity, so their fields read.
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'flat-entities', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'config/permissions.json': JSON.stringify({ public: ['api::book.book.find'] }),
  'src/api/book/content-types/book/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'books',
    info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
    attributes: { title: { type: 'string' }, pages: { type: 'integer' } },
  }),
  'src/index.js': `
    module.exports = {
      register({ strapi }) {
        strapi.plugin('graphql').service('extension').use(() => ({
          typeDefs: 'type Query { shelf: [BookEntity] firstBook: BookEntity }',
          resolvers: {
            Query: {
              shelf: () => strapi.entityService.findMany('api::book.book', { sort: 'id' }),
              firstBook: async () => (await strapi.entityService.findMany('api::book.book', { sort: 'id', limit: 1 }))[0],
            },
          },
          resolversConfig: { 'Query.shelf': { auth: false }, 'Query.firstBook': { auth: false } },
        }));
      },
      async bootstrap({ strapi }) {
        for (const [title, pages] of [['Dune', 612], ['Emma', 474]])
          await strapi.entityService.create('api::book.book', { data: { title, pages } });
      },
    };
  `,
};

describe('GraphQL: flat entries answered for <Type>Entity by a custom resolver', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  it('reads their fields through attributes, as Strapi does', async () => {
    const res = await gql(service, '{ shelf { id attributes { title pages } } firstBook { id attributes { title } } }');
    expect(res.body).to.deep.equal({
      data: {
        shelf: [
          { id: '1', attributes: { title: 'Dune', pages: 612 } },
          { id: '2', attributes: { title: 'Emma', pages: 474 } },
        ],
        firstBook: { id: '1', attributes: { title: 'Dune' } },
      },
    });
  });

  it('leaves the generated queries’ entries as they were', async () => {
    const res = await gql(service, '{ books { data { id attributes { title } } } }');
    expect(res.body).to.deep.equal({
      data: {
        books: {
          data: [
            { id: '1', attributes: { title: 'Dune' } },
            { id: '2', attributes: { title: 'Emma' } },
          ],
        },
      },
    });
  });
});
