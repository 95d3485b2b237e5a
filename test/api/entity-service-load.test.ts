// strapi.entityService.load / loadPages (Strapi 4.26's entity service): one relational field of one
// entry (relation, media, component, dynamic zone) with params, and a page of a to-many relation
// with its total; each one read of the entry, however many entries are related. The same through
// strapi.db.query(uid).load / loadPages, in the query engine's words.
import { expect } from 'chai';
import request from 'supertest';
import { createCommandCountingService, type TestService } from '../helpers/server.js';
import { componentSchema, writeTempApp } from '../helpers/temp-app.js';

const SHELF = {
  kind: 'collectionType',
  collectionName: 'shelves',
  info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    books: { type: 'relation', relation: 'manyToMany', target: 'api::book.book', inversedBy: 'shelves' },
    favourite: { type: 'relation', relation: 'manyToOne', target: 'api::book.book' },
    photo: { type: 'media', multiple: false },
    label: { type: 'component', repeatable: false, component: 'shared.label' },
    sections: { type: 'component', repeatable: true, component: 'shared.label' },
    zone: { type: 'dynamiczone', components: ['shared.label'] },
  },
};

const BOOK = {
  kind: 'collectionType',
  collectionName: 'books',
  info: { singularName: 'book', pluralName: 'books', displayName: 'Book' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string' },
    pages: { type: 'integer' },
    shelves: { type: 'relation', relation: 'manyToMany', target: 'api::shelf.shelf', mappedBy: 'books' },
  },
};

/**
 * `POST /api/call` runs `strapi.entityService[method](...args)` (`uid` given: `strapi.db.query(uid)[method]`)
 * and answers its result (or its error); `GET /api/seen` answers the params the shelves' beforeFindOne hook saw.
 */
const INDEX = `const seen = [];
module.exports = {
  register({ strapi }) {
    strapi.server.routes({ type: 'content-api', routes: [
      { method: 'POST', path: '/call', config: { auth: false }, handler: async (ctx) => {
        const { method, args, uid } = ctx.request.body;
        try {
          const target = uid ? strapi.db.query(uid) : strapi.entityService;
          ctx.body = { result: await target[method](...args) };
        } catch (err) {
          ctx.body = { error: err.name + ': ' + err.message };
        }
      } },
      { method: 'GET', path: '/seen', config: { auth: false }, handler: (ctx) => { ctx.body = seen; } },
    ] });
  },
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['api::shelf.shelf'],
      beforeFindOne(event) { seen.push(JSON.parse(JSON.stringify(event.params))); },
    });
  },
};
`;

describe('strapi.entityService.load and loadPages', function () {
  this.timeout(60_000);
  let service: TestService;
  let commands: string[];
  let shelf: number;
  let books: number[];

  const call = async (method: string, ...args: unknown[]) => {
    const res = await request(service.app).post('/api/call').send({ method, args }).expect(200);
    return res.body as { result?: unknown; error?: string };
  };
  const query = async (method: string, ...args: unknown[]) => {
    const res = await request(service.app)
      .post('/api/call')
      .send({ uid: 'api::shelf.shelf', method, args })
      .expect(200);
    return res.body as { result?: unknown; error?: string };
  };

  before(async () => {
    const appDir = await writeTempApp({
      api: { 'shelf/shelf': SHELF, 'book/book': BOOK },
      components: { 'shared.label': componentSchema('shared.label', { text: { type: 'string' } }) },
      files: { 'src/index.js': INDEX },
    });
    ({ service, commands } = await createCommandCountingService({ appDir }));
    const create = async (uid: string, data: Record<string, unknown>) =>
      ((await call('create', uid, { data })).result as { id: number }).id;
    const titles = ['Dune', 'Emma', 'Ivanhoe', 'Beloved', 'Carrie'];
    books = [];
    for (const [index, title] of titles.entries()) {
      const published = title === 'Carrie' ? null : new Date().toISOString();
      books.push(await create('api::book.book', { title, pages: 100 * (index + 1), publishedAt: published }));
    }
    const photo = await create('plugin::upload.file', {
      name: 'shelf.png',
      hash: 'shelf',
      ext: '.png',
      mime: 'image/png',
      size: 1,
      url: '/uploads/shelf.png',
      provider: 'local',
    });
    shelf = await create('api::shelf.shelf', {
      name: 'Classics',
      books,
      favourite: books[1],
      photo,
      label: { text: 'front' },
      sections: [{ text: 'A' }, { text: 'B' }],
      zone: [{ __component: 'shared.label', text: 'zone' }],
    });
  });
  after(() => service.close());

  it('load: a to-many relation with fields, filters and sort; a to-one; media; components; a dynamic zone', async () => {
    commands.length = 0;
    const { result } = await call('load', 'api::shelf.shelf', { id: shelf }, 'books', {
      fields: ['title'],
      filters: { pages: { $gte: 200 } },
      sort: 'title:asc',
    });
    // drafts too (Strapi's load applies no publication state unless asked), one read of the shelf
    expect(result).to.deep.equal(
      ['Beloved', 'Carrie', 'Emma', 'Ivanhoe'].map((title) => ({
        id: books[['Dune', 'Emma', 'Ivanhoe', 'Beloved', 'Carrie'].indexOf(title)],
        title,
      })),
    );
    expect(commands).to.deep.equal(['aggregate']);
    const live = await call('load', 'api::shelf.shelf', { id: shelf }, 'books', {
      fields: ['title'],
      publicationState: 'live',
    });
    expect((live.result as Array<{ title: string }>).map((b) => b.title)).to.not.include('Carrie');
    expect(
      (await call('load', 'api::shelf.shelf', { id: shelf }, 'favourite', { fields: ['title'] })).result,
    ).to.deep.equal({
      id: books[1],
      title: 'Emma',
    });
    expect((await call('load', 'api::shelf.shelf', { id: shelf }, 'photo')).result).to.deep.include({
      name: 'shelf.png',
    });
    expect((await call('load', 'api::shelf.shelf', { id: shelf }, 'label')).result).to.deep.include({ text: 'front' });
    expect(((await call('load', 'api::shelf.shelf', { id: shelf }, 'sections')).result as unknown[]).length).to.equal(
      2,
    );
    const zone = (await call('load', 'api::shelf.shelf', { id: shelf }, 'zone')).result as unknown[];
    expect(zone).to.have.length(1);
    expect(zone[0]).to.deep.include({ __component: 'shared.label', text: 'zone' });
    expect((await call('load', 'api::shelf.shelf', { id: shelf }, 'books', { count: true })).result).to.deep.equal({
      count: 5,
    });
  });

  it('load: an entry that does not exist is null; a field that is not relational is an error with Strapi message', async () => {
    expect((await call('load', 'api::shelf.shelf', { id: 999_999 }, 'books')).result).to.equal(null);
    expect((await call('load', 'api::shelf.shelf', { id: shelf }, 'name')).error).to.equal(
      'Error: Invalid load. Expected name to be a relational attribute',
    );
    expect((await call('load', 'api::shelf.shelf', { id: shelf }, 42)).error).to.equal(
      'Error: Invalid load. Expected "42" to be a string',
    );
  });

  it('loadPages: one page of a to-many relation and its total, in one read', async () => {
    commands.length = 0;
    const second = await call(
      'loadPages',
      'api::shelf.shelf',
      { id: shelf },
      'books',
      { fields: ['title'], sort: 'title:asc' },
      { page: 2, pageSize: 2 },
    );
    expect(second.result).to.deep.equal({
      results: [
        { id: books[0], title: 'Dune' },
        { id: books[1], title: 'Emma' },
      ],
      pagination: { page: 2, pageSize: 2, pageCount: 3, total: 5 },
    });
    expect(commands).to.deep.equal(['aggregate']);
    // the total counts what the filters match; page 1 and pageSize 10 by default
    const filtered = await call('loadPages', 'api::shelf.shelf', { id: shelf }, 'books', {
      filters: { pages: { $lt: 300 } },
      fields: ['title'],
    });
    expect(filtered.result).to.deep.include({ pagination: { page: 1, pageSize: 10, pageCount: 1, total: 2 } });
    expect((await call('loadPages', 'api::shelf.shelf', { id: 999_999 }, 'books')).result).to.deep.equal({
      results: [],
      pagination: { page: 1, pageSize: 10, pageCount: 0, total: 0 },
    });
    expect((await call('loadPages', 'api::shelf.shelf', { id: shelf }, 'favourite')).error).to.equal(
      'Error: Invalid load. Expected "favourite" to be an anyToMany relational attribute',
    );
    expect((await call('loadPages', 'api::shelf.shelf', { id: shelf }, 'books', {}, { page: 0 })).error).to.equal(
      "PaginationError: Invalid 'page' parameter. Expected an integer > 0, received: 0",
    );
  });

  it('db.query(uid).load and loadPages: the populate in the query engine words, a list of fields, a page', async () => {
    commands.length = 0;
    const { result } = await query('load', { id: shelf }, 'books', {
      select: ['title'],
      where: { pages: { $gte: 200 } },
      orderBy: { title: 'asc' },
      limit: 2,
      offset: 1,
    });
    expect(result).to.deep.equal([
      { id: books[4], title: 'Carrie' },
      { id: books[1], title: 'Emma' },
    ]);
    expect(commands).to.deep.equal(['aggregate']);
    expect((await query('load', { id: shelf }, 'favourite')).result).to.deep.include({ id: books[1], title: 'Emma' });
    expect((await query('load', { id: shelf }, 'books', { count: true })).result).to.deep.equal({ count: 5 });
    // a list of fields: each of them, in one read
    commands.length = 0;
    const both = (await query('load', { id: shelf }, ['favourite', 'label'], { select: ['id'] })).result;
    expect(both).to.have.keys(['favourite', 'label']);
    expect(commands).to.deep.equal(['aggregate']);
    expect((await query('load', { id: 999_999 }, ['favourite'])).result).to.equal(null);
    expect((await query('load', { id: shelf }, 'name')).error).to.equal(
      'Error: Invalid load. Expected name to be a relational attribute',
    );
    const page = await query('loadPages', { id: shelf }, 'books', {
      select: ['title'],
      orderBy: { title: 'asc' },
      page: 2,
      pageSize: 2,
    });
    expect(page.result).to.deep.equal({
      results: [
        { id: books[0], title: 'Dune' },
        { id: books[1], title: 'Emma' },
      ],
      pagination: { page: 2, pageSize: 2, pageCount: 3, total: 5 },
    });
    expect((await query('loadPages', { id: shelf }, 'books')).result).to.deep.include({
      pagination: { page: 1, pageSize: 10, pageCount: 1, total: 5 },
    });
  });

  it("runs the entry's findOne hooks with what Strapi's query engine is given (select id, where id, the field's populate)", async () => {
    await request(service.app).get('/api/seen').expect(200); // reached: the route works
    const before = ((await request(service.app).get('/api/seen')).body as unknown[]).length;
    await call('load', 'api::shelf.shelf', { id: shelf }, 'books', { fields: ['title'] });
    const seen = (await request(service.app).get('/api/seen')).body as unknown[];
    expect(seen.slice(before)).to.deep.equal([
      { select: ['id'], where: { id: shelf }, populate: { books: { fields: ['title'] } } },
    ]);
  });
});
