import { expect } from 'chai';
import { createCommandCountingService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';
import { gql } from './helpers.js';

/**
 * A custom resolver answering entries as `strapi.entityService` reads them (flat) for a
 * `<Type>Entity` return type: Strapi's `attributes` resolver is the identity, so their fields read.
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'flat-entities', dependencies: { '@strapi/plugin-graphql': '4.26.2' } }),
  'config/permissions.json': JSON.stringify({
    public: [
      'api::book.book.find',
      'api::author.author.find',
      'api::publisher.publisher.find',
      'api::library.library.find',
    ],
  }),
  'src/api/publisher/content-types/publisher/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'publishers',
    info: { singularName: 'publisher', pluralName: 'publishers', displayName: 'Publisher' },
    options: { draftAndPublish: true },
    attributes: { name: { type: 'string' } },
  }),
  'src/api/author/content-types/author/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'authors',
    info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
    attributes: { name: { type: 'string' } },
  }),
  'src/api/book/content-types/book/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'books',
    info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
    attributes: {
      title: { type: 'string' },
      pages: { type: 'integer' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
      sequels: { type: 'relation', relation: 'oneToMany', target: 'api::book.book' },
      publisher: { type: 'relation', relation: 'manyToOne', target: 'api::publisher.publisher' },
    },
  }),
  // components holding relations, in a list, a dynamic zone and a component inside a zone's item
  'src/api/library/content-types/library/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'libraries',
    info: { singularName: 'library', pluralName: 'libraries', displayName: 'Library' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      slots: { type: 'component', repeatable: true, component: 'shelf.slot' },
      zone: { type: 'dynamiczone', components: ['shelf.slot', 'shelf.section'] },
    },
  }),
  'src/components/shelf/slot.json': JSON.stringify({
    collectionName: 'components_shelf_slots',
    info: { displayName: 'slot' },
    attributes: {
      label: { type: 'string' },
      book: { type: 'relation', relation: 'oneToOne', target: 'api::book.book' },
    },
  }),
  'src/components/shelf/section.json': JSON.stringify({
    collectionName: 'components_shelf_sections',
    info: { displayName: 'section' },
    attributes: { name: { type: 'string' }, slot: { type: 'component', repeatable: false, component: 'shelf.slot' } },
  }),
  'src/index.js': `
    module.exports = {
      register({ strapi }) {
        strapi.plugin('graphql').service('extension').use(() => ({
          typeDefs: \`type Query { shelf: [BookEntity] shelfWithAuthors: [BookEntity] firstBook: BookEntity
            bookByTitle(title: String!): BookEntityResponse  booksByPages(min: Int!): BookEntityResponseCollection
            library: LibraryEntityResponse }\`,
          resolvers: {
            Query: {
              // entries read without their relations, answered through the format service
              async bookByTitle(_parent, args) {
                const [book] = await strapi.entityService.findMany('api::book.book', { filters: { title: args.title } });
                const { toEntityResponse } = strapi.plugin('graphql').service('format').returnTypes;
                return toEntityResponse(book ?? null, { args, resourceUID: 'api::book.book' });
              },
              async booksByPages(_parent, args) {
                const books = await strapi.entityService.findMany('api::book.book', { filters: { pages: { $gte: args.min } }, sort: 'id' });
                const { toEntityResponseCollection } = strapi.plugin('graphql').service('format').returnTypes;
                return toEntityResponseCollection(books, { args, resourceUID: 'api::book.book' });
              },
              shelf: () => strapi.entityService.findMany('api::book.book', { sort: 'id' }),
              // a populated relation comes flat too: its field is still read as Strapi's resolver reads it
              shelfWithAuthors: () => strapi.entityService.findMany('api::book.book', { sort: 'id', populate: ['author'] }),
              async library() {
                const library = await strapi.entityService.findOne('api::library.library', 1, {
                  populate: { slots: true, zone: { populate: '*' } },
                });
                const { toEntityResponse } = strapi.plugin('graphql').service('format').returnTypes;
                return toEntityResponse(library, { resourceUID: 'api::library.library' });
              },
              firstBook: async () => (await strapi.entityService.findMany('api::book.book', { sort: 'id', limit: 1 }))[0],
            },
          },
          resolversConfig: {
            'Query.shelf': { auth: false },
            'Query.shelfWithAuthors': { auth: false },
            'Query.firstBook': { auth: false },
            'Query.bookByTitle': { auth: false },
            'Query.booksByPages': { auth: false },
            'Query.library': { auth: false },
          },
        }));
      },
      async bootstrap({ strapi }) {
        const author = await strapi.entityService.create('api::author.author', { data: { name: 'Frank Herbert' } });
        const dune = await strapi.entityService.create('api::book.book', { data: { title: 'Dune', pages: 612, author: author.id } });
        // a draft (the entity service creates drafts): not for a caller who did not ask for preview
        const draft = await strapi.entityService.create('api::publisher.publisher', { data: { name: 'Unannounced' } });
        await strapi.entityService.create('api::book.book', { data: { title: 'Emma', pages: 474, publisher: draft.id } });
        await strapi.entityService.create('api::book.book', { data: { title: 'Dune Messiah', pages: 256, author: author.id } });
        await strapi.entityService.update('api::book.book', dune.id, { data: { sequels: [3] } });
        await strapi.entityService.create('api::library.library', {
          data: {
            name: 'City',
            slots: [{ label: 'A', book: 1 }, { label: 'B', book: 3 }],
            zone: [
              { __component: 'shelf.slot', label: 'Z', book: 2 },
              { __component: 'shelf.section', name: 'Classics', slot: { label: 'S', book: 1 } },
            ],
          },
        });
      },
    };
  `,
};

describe('GraphQL: flat entries answered for <Type>Entity by a custom resolver', () => {
  let service: TestService;
  let commands: string[];
  before(async () => {
    ({ service, commands } = await createCommandCountingService({ appDir: await writeTempProject(PROJECT) }));
  });
  after(() => service.close());

  it('reads their fields through attributes, as Strapi does', async () => {
    const res = await gql(service, '{ shelf { id attributes { title pages } } firstBook { id attributes { title } } }');
    expect(res.body).to.deep.equal({
      data: {
        shelf: [
          { id: '1', attributes: { title: 'Dune', pages: 612 } },
          { id: '2', attributes: { title: 'Emma', pages: 474 } },
          { id: '3', attributes: { title: 'Dune Messiah', pages: 256 } },
        ],
        firstBook: { id: '1', attributes: { title: 'Dune' } },
      },
    });
  });

  it('reads their relation fields from the database, with the field’s arguments, populated or not', async () => {
    const selection = `id attributes { title author { data { id attributes { name } } }
      sequels(filters: { pages: { gt: 100 } }) { data { attributes { title } } } }`;
    const res = await gql(service, `{ shelf { ${selection} } shelfWithAuthors { ${selection} } }`);
    const dune = {
      id: '1',
      attributes: {
        title: 'Dune',
        author: { data: { id: '1', attributes: { name: 'Frank Herbert' } } },
        sequels: { data: [{ attributes: { title: 'Dune Messiah' } }] },
      },
    };
    const emma = { id: '2', attributes: { title: 'Emma', author: { data: null }, sequels: { data: [] } } };
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    expect((res.body.data?.shelf as unknown[]).slice(0, 2)).to.deep.equal([dune, emma]);
    expect((res.body.data?.shelfWithAuthors as unknown[]).slice(0, 2)).to.deep.equal([dune, emma]);
  });

  it('reads their relations live: a draft related entry is not answered', async () => {
    const res = await gql(service, '{ shelf { id attributes { publisher { data { id } } } } }');
    expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
    expect((res.body.data?.shelf as Array<{ attributes: unknown }>)[1]?.attributes).to.deep.equal({
      publisher: { data: null },
    });
  });

  it('leaves the generated queries’ entries as they were', async () => {
    const res = await gql(
      service,
      '{ books(filters: { id: { lte: 2 } }) { data { id attributes { title author { data { id } } } } } }',
    );
    expect(res.body).to.deep.equal({
      data: {
        books: {
          data: [
            { id: '1', attributes: { title: 'Dune', author: { data: { id: '1' } } } },
            { id: '2', attributes: { title: 'Emma', author: { data: null } } },
          ],
        },
      },
    });
  });

  it('toEntityResponse(Collection) of entries read without their relations: a selected relation is read by the entry id, once per field and entry', async () => {
    commands.length = 0;
    const one = await gql(
      service,
      `{ bookByTitle(title: "Dune") { data { id attributes { title author { data { id attributes { name } } }
        sequels { data { attributes { title } } } } } } }`,
    );
    expect(one.body).to.deep.equal({
      data: {
        bookByTitle: {
          data: {
            id: '1',
            attributes: {
              title: 'Dune',
              author: { data: { id: '1', attributes: { name: 'Frank Herbert' } } },
              sequels: { data: [{ attributes: { title: 'Dune Messiah' } }] },
            },
          },
        },
      },
    });
    // the resolver's read, then one per selected relation field of the entry
    expect(commands).to.have.length(3);
    commands.length = 0;
    const list = await gql(
      service,
      '{ booksByPages(min: 400) { data { id attributes { title author { data { attributes { name } } } } } } }',
    );
    expect(list.body.data?.booksByPages).to.deep.equal({
      data: [
        { id: '1', attributes: { title: 'Dune', author: { data: { attributes: { name: 'Frank Herbert' } } } } },
        { id: '2', attributes: { title: 'Emma', author: { data: null } } },
      ],
    });
    expect(commands).to.have.length(3);
    // no relation selected: no read beyond the resolver's
    commands.length = 0;
    const bare = await gql(service, '{ booksByPages(min: 400) { data { id attributes { title } } } }');
    expect(bare.body.errors).to.equal(undefined);
    expect(commands).to.have.length(1);
  });

  it('toEntityResponse of an entry whose components hold relations: each relation is read through the entry, down to its component', async () => {
    const title = 'book { data { id attributes { title } } }';
    const res = await gql(
      service,
      `{ library { data { id attributes { name slots { label ${title} }
        zone { __typename ... on ComponentShelfSlot { label ${title} }
          ... on ComponentShelfSection { name slot { label ${title} } } } } } } }`,
    );
    const book = (id: string, bookTitle: string) => ({ data: { id, attributes: { title: bookTitle } } });
    expect(res.body).to.deep.equal({
      data: {
        library: {
          data: {
            id: '1',
            attributes: {
              name: 'City',
              slots: [
                { label: 'A', book: book('1', 'Dune') },
                { label: 'B', book: book('3', 'Dune Messiah') },
              ],
              zone: [
                { __typename: 'ComponentShelfSlot', label: 'Z', book: book('2', 'Emma') },
                {
                  __typename: 'ComponentShelfSection',
                  name: 'Classics',
                  slot: { label: 'S', book: book('1', 'Dune') },
                },
              ],
            },
          },
        },
      },
    });
  });
});
