import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { at, gql } from './helpers.js';

type Entity = { id: string; attributes: Record<string, unknown> };

/** Shadow CRUD queries on the fixture app: envelopes, nested selections, filters, pagination, limits, errors. */
describe('GraphQL queries', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const ids = (value: unknown) => (value as Entity[]).map((e) => e.id);

  it('answers a collection with { data: [{ id, attributes }] } in the default locale, live entries, default page of 10', async () => {
    const res = await gql(service, '{ articles { data { id attributes { title } } } }');
    expect(res.status).to.equal(200);
    expect(ids(at(res.body, 'data.articles.data'))).to.deep.equal(['1', '2', '3', '4', '6', '7', '8', '9', '10', '11']);
  });

  it("answers a subscription as Strapi 4.26: execute's 400 at the operation once it validates, else the validation errors", async () => {
    const valid = await gql(service, '\n  subscription S { __typename }');
    expect(valid).to.deep.equal({
      status: 400,
      body: {
        errors: [
          {
            message: 'Schema is not configured for subscriptions.',
            locations: [{ line: 2, column: 3 }],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      },
    });
    const invalid = await gql(service, 'subscription S($x: Nope) { __typename }');
    expect(invalid.status).to.equal(400);
    expect(invalid.body.errors?.[0]?.extensions).to.deep.equal({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });

  it('resolves nested relations, components and scalars from one read', async () => {
    const res = await gql(
      service,
      `{ article(id: 1) { data { id attributes { title views metadata publishDate
      author { data { id attributes { name } } } tags { data { id } } reviewer { data { id } }
      seo { metaTitle metaSocial { network } } links { label } } } } }`,
    );
    const attributes = at(res.body, 'data.article.data.attributes') as Record<string, unknown>;
    expect(attributes.title).to.equal('Getting Started with Strapi');
    expect(attributes.views).to.equal(3000123457);
    expect(attributes.publishDate).to.equal('2023-01-08');
    expect(attributes.author).to.deep.equal({ data: { id: '1', attributes: { name: 'Alice Martin' } } });
    expect(attributes.tags).to.deep.equal({ data: [{ id: '2' }, { id: '6' }] });
    expect(attributes.reviewer).to.deep.equal({ data: null });
    expect(at(res.body, 'data.article.data.attributes.seo.metaSocial')).to.deep.equal([
      { network: 'Twitter' },
      { network: 'Facebook' },
    ]);
  });

  it('follows fragments and inline fragments, and relation arguments (filters, sort, pagination)', async () => {
    const res = await gql(
      service,
      `
      fragment A on Article { title category { data { ...C } } }
      fragment C on CategoryEntity { attributes { name articles(sort: "id:desc", pagination: { limit: 2 }) { data { id } } } }
      { article(id: 1) { data { attributes { ...A ... on Article { tags(filters: { name: { eq: "Paris" } }) { data { attributes { name } } } } } } } }`,
    );
    expect(res.body.errors).to.equal(undefined);
    expect(at(res.body, 'data.article.data.attributes.category.data.attributes.name')).to.equal('Technology');
    expect(ids(at(res.body, 'data.article.data.attributes.category.data.attributes.articles.data'))).to.have.length(2);
    expect(at(res.body, 'data.article.data.attributes.tags.data')).to.deep.equal([{ attributes: { name: 'Paris' } }]);
  });

  it('sorts and paginates repeatable components in place', async () => {
    const res = await gql(
      service,
      '{ article(id: 1) { data { attributes { seo { metaSocial(sort: "network:asc") { network } } links(pagination: { start: 1, limit: 1 }) { label } } } } }',
    );
    expect(at(res.body, 'data.article.data.attributes.seo.metaSocial')).to.deep.equal([
      { network: 'Facebook' },
      { network: 'Twitter' },
    ]);
    expect(at(res.body, 'data.article.data.attributes.links')).to.deep.equal([{ label: 'Link 2 of 1' }]);
    const bad = await gql(service, '{ article(id: 1) { data { attributes { links(sort: "nope") { label } } } } }');
    expect(bad.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
  });

  it('resolves dynamic zone members by __component', async () => {
    const res = await gql(
      service,
      '{ articles(pagination: { pageSize: 100 }) { data { id attributes { blocks { __typename ... on ComponentBlocksQuote { text } } } } } }',
    );
    const blocks = (at(res.body, 'data.articles.data') as Entity[]).flatMap(
      (e) => e.attributes.blocks as Array<Record<string, unknown>>,
    );
    expect(blocks.length).to.be.greaterThan(0);
    for (const block of blocks) {
      expect(block.__typename).to.match(/^ComponentBlocks/);
      if (block.__typename === 'ComponentBlocksQuote') expect(block.text).to.be.a('string');
    }
  });

  it('filters with and/or/not, nested relation filters and Long values', async () => {
    const a = await gql(
      service,
      '{ articles(filters: { and: [{ readingTime: { between: [5, 10] } }, { rating: { gt: 2 } }] }) { data { id } } }',
    );
    expect(ids(at(a.body, 'data.articles.data'))).to.deep.equal(['2', '9', '21', '31']);
    const b = await gql(
      service,
      '{ articles(filters: { author: { name: { eq: "Alice Martin" } }, not: { id: { eq: 1 } } }) { data { id attributes { author { data { id } } } } } }',
    );
    for (const entry of at(b.body, 'data.articles.data') as Entity[])
      expect(entry.attributes.author).to.deep.equal({ data: { id: '1' } });
    expect(ids(at(b.body, 'data.articles.data'))).not.to.include('1');
    const c = await gql(
      service,
      '{ events(filters: { budget: { gte: "5000000000" }, online: { null: true } }) { data { id } } }',
    );
    expect(ids(at(c.body, 'data.events.data'))).to.deep.equal(['6', '9']);
  });

  it('paginates with start/limit and answers page-style meta; counts only when total/pageCount is asked', async () => {
    const res = await gql(
      service,
      '{ articles(pagination: { start: 5, limit: 3 }) { data { id } meta { pagination { total page pageSize pageCount } } } }',
    );
    expect(at(res.body, 'data.articles.meta.pagination')).to.deep.equal({
      total: 34,
      page: 2,
      pageSize: 3,
      pageCount: 12,
    });
    const noCount = await gql(
      service,
      '{ articles(pagination: { page: 2, pageSize: 5 }) { meta { pagination { page pageSize } } } }',
    );
    expect(at(noCount.body, 'data.articles.meta.pagination')).to.deep.equal({ page: 2, pageSize: 5 });
  });

  it("reads pagination as Strapi's GraphQL plugin: limit -1, sizes below 1, page or start alone", async () => {
    const meta = async (args: string) => {
      const res = await gql(
        service,
        `{ articles(pagination: ${args}) { data { id } meta { pagination { total page pageSize pageCount } } } }`,
      );
      expect(res.body.errors, args).to.equal(undefined);
      const data = at(res.body, 'data.articles.data') as unknown[];
      return { count: data.length, ...(at(res.body, 'data.articles.meta.pagination') as object) };
    };
    // limit -1: everything from start, one page whose size is what is left (capped by amountLimit)
    expect(await meta('{ limit: -1 }')).to.deep.equal({ count: 34, total: 34, page: 1, pageSize: 34, pageCount: 1 });
    expect(await meta('{ start: 30, limit: -1 }')).to.deep.equal({
      count: 4,
      total: 34,
      page: 1,
      pageSize: 4,
      pageCount: 1,
    });
    expect(await meta('{ pageSize: -1 }')).to.deep.equal({ count: 1, total: 34, page: 1, pageSize: 1, pageCount: 34 });
    expect(await meta('{ limit: 0 }')).to.deep.equal({ count: 1, total: 34, page: 1, pageSize: 1, pageCount: 34 });
    // a page without pageSize has one entry; a start without limit has defaultLimit
    expect(await meta('{ page: 3 }')).to.deep.equal({ count: 1, total: 34, page: 3, pageSize: 1, pageCount: 34 });
    expect(await meta('{ start: 7 }')).to.deep.equal({ count: 10, total: 34, page: 1, pageSize: 10, pageCount: 4 });
    const nested = await gql(
      service,
      '{ tags(pagination: { limit: 1 }) { data { attributes { all: articles(pagination: { limit: -1 }) { data { id } } } } } }',
    );
    const all = at(nested.body, 'data.tags.data') as { attributes: { all: { data: unknown[] } } }[];
    expect(all[0]?.attributes.all.data.length).to.be.greaterThan(0);
  });

  it('paginates nested lists (page or offset style, Strapi PaginationError when mixed)', async () => {
    const page = await gql(
      service,
      '{ category(id: 1) { data { attributes { articles(pagination: { page: 2, pageSize: 2 }) { data { id } } } } } }',
    );
    expect(ids(at(page.body, 'data.category.data.attributes.articles.data'))).to.deep.equal(['11', '16']);
    const offset = await gql(
      service,
      '{ category(id: 1) { data { attributes { articles(pagination: { start: 1, limit: 2 }) { data { id } } } } } }',
    );
    expect(ids(at(offset.body, 'data.category.data.attributes.articles.data'))).to.deep.equal(['6', '11']);
    const mixed = await gql(
      service,
      '{ category(id: 1) { data { attributes { articles(pagination: { page: 1, limit: 2 }) { data { id } } } } } }',
    );
    expect(mixed.body.errors?.[0]?.extensions?.code).to.equal('STRAPI_PAGINATION_ERROR');
  });

  it('caps a page at amountLimit (100) and says so in the meta (Strapi does not cap)', async () => {
    const res = await gql(
      service,
      '{ articles(pagination: { pageSize: 200 }, locale: "all") { data { id } meta { pagination { pageSize total } } } }',
    );
    expect(at(res.body, 'data.articles.meta.pagination')).to.deep.equal({ pageSize: 100, total: 40 });
  });

  it('answers mixed page/offset pagination with Strapi PaginationError shape and data null', async () => {
    const res = await gql(service, '{ articles(pagination: { page: 1, limit: 3 }) { data { id } } }');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      errors: [
        {
          message: 'Cannot use both page & offset pagination in the same query',
          extensions: {
            error: {
              name: 'PaginationError',
              message: 'Cannot use both page & offset pagination in the same query',
              details: {},
            },
            code: 'STRAPI_PAGINATION_ERROR',
          },
        },
      ],
      data: { articles: null },
    });
  });

  it('shows drafts only with PREVIEW; a draft by id is data: null (Strapi answers drafts)', async () => {
    const live = await gql(service, '{ articles(filters: { publishedAt: { null: true } }) { data { id } } }');
    expect(at(live.body, 'data.articles.data')).to.deep.equal([]);
    const preview = await gql(
      service,
      '{ articles(publicationState: PREVIEW, filters: { publishedAt: { null: true } }) { data { id } } }',
    );
    expect(ids(at(preview.body, 'data.articles.data'))).to.deep.equal(['5', '12', '19', '26', '33', '38']);
    const draft = await gql(service, '{ article(id: 5) { data { id } } }');
    expect(draft.body).to.deep.equal({ data: { article: { data: null } } });
    const missing = await gql(service, '{ article(id: 999) { data { id } } }');
    expect(missing.body).to.deep.equal({ data: { article: { data: null } } });
  });

  it('reads another locale and the localizations of an entry', async () => {
    const fr = await gql(service, '{ articles(locale: "fr") { data { id attributes { locale } } } }');
    for (const entry of at(fr.body, 'data.articles.data') as Entity[]) expect(entry.attributes.locale).to.equal('fr');
    const res = await gql(
      service,
      '{ article(id: 1) { data { attributes { localizations { data { id attributes { locale } } } } } } }',
    );
    expect(at(res.body, 'data.article.data.attributes.localizations.data')).to.deep.equal([
      { id: '41', attributes: { locale: 'fr' } },
    ]);
  });

  it('reads the single type', async () => {
    const res = await gql(
      service,
      '{ homepage { data { id attributes { title featuredArticles { data { id } } } } } }',
    );
    expect(at(res.body, 'data.homepage.data.attributes.title')).to.be.a('string');
  });

  it('rejects private fields, bad argument types and unknown operators as GRAPHQL_VALIDATION_FAILED (400)', async () => {
    const privateField = await gql(service, '{ articles { data { attributes { internalNotes } } } }');
    expect(privateField.status).to.equal(400);
    expect(privateField.body.errors?.[0]).to.deep.include({
      message: 'Cannot query field "internalNotes" on type "Article".',
    });
    expect(privateField.body.errors?.[0]?.extensions).to.deep.equal({ code: 'GRAPHQL_VALIDATION_FAILED' });
    // parsed and validated documents are cached: the same query answers the same way again
    expect(await gql(service, '{ articles { data { attributes { internalNotes } } } }')).to.deep.equal(privateField);
    const parseError = await gql(service, '{ articles { data { id } ');
    expect(parseError.status).to.equal(400);
    expect(parseError.body.errors?.[0]?.extensions).to.deep.equal({ code: 'GRAPHQL_PARSE_FAILED' });
    const badArg = await gql(service, '{ articles(pagination: { page: "x" }) { data { id } } }');
    expect(badArg.status).to.equal(400);
    expect(badArg.body.errors?.[0]?.message).to.equal('Int cannot represent non-integer value: "x"');
    const unknownOp = await gql(service, '{ articles(filters: { title: { like: "x" } }) { data { id } } }');
    expect(unknownOp.body.errors?.[0]?.message).to.equal(
      'Field "like" is not defined by type "StringFilterInput". Did you mean "lte"?',
    );
  });

  it('answers variables that are missing or of the wrong type as BAD_USER_INPUT (400), as Apollo does', async () => {
    const query = 'query Q($id: ID!) { article(id: $id) { data { id } } }';
    const missing = await gql(service, query, {});
    expect(missing.status).to.equal(400);
    expect(missing.body.errors?.[0]).to.deep.include({
      message: 'Variable "$id" of required type "ID!" was not provided.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const wrong = await gql(service, 'query Q($p: Int) { articles(pagination: { page: $p }) { data { id } } }', {
      p: 'x',
    });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.errors?.[0]?.extensions).to.deep.equal({ code: 'BAD_USER_INPUT' });
  });

  it('reads a list given for an input object as graphql-js 15 does: [] is {}, each item an unknown field', async () => {
    const query =
      'query ($p: PaginationArg, $f: ArticleFiltersInput) { articles(pagination: $p, filters: $f) { data { id } } }';
    const all = await gql(service, query, {});
    for (const variables of [{ p: [] }, { f: [] }, { f: { id: [] } }, { f: { and: [[]] } }]) {
      const res = await gql(service, query, variables);
      expect([res.status, res.body], JSON.stringify(variables)).to.deep.equal([200, all.body]);
    }
    const one = await gql(service, query, { p: [{ page: 1 }] });
    expect([one.status, one.body]).to.deep.equal([
      400,
      {
        errors: [
          {
            message: 'Variable "$p" got invalid value [{ page: 1 }]; Field "0" is not defined by type "PaginationArg".',
            locations: [{ line: 1, column: 8 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      },
    ]);
    const two = await gql(service, 'mutation ($d: NoteInput!) { createNote(data: $d) { data { id } } }', {
      d: [{ title: 'a' }, { score: 1 }],
    });
    const invalid = 'Variable "$d" got invalid value [{ title: "a" }, { score: 1 }]';
    expect(two.body.errors?.map((e: { message: string }) => e.message)).to.deep.equal([
      `${invalid}; Field "0" is not defined by type "NoteInput".`,
      `${invalid}; Field "1" is not defined by type "NoteInput".`,
    ]);
    // with another variable's error, in the variables' order
    const both = await gql(service, query, { p: 'x', f: [{ id: { eq: 1 } }] });
    expect(both.body.errors?.map((e: { message: string }) => e.message)).to.deep.equal([
      'Variable "$p" got invalid value "x"; Expected type "PaginationArg" to be an object.',
      'Variable "$f" got invalid value [{ id: [Object] }]; Field "0" is not defined by type "ArticleFiltersInput".',
    ]);
  });

  it('never exposes a password attribute, in output or filters (Strapi answers the hash)', async () => {
    const output = await gql(service, '{ authors { data { attributes { secretCode } } } }');
    expect(output.status).to.equal(400);
    const filter = await gql(service, '{ authors(filters: { secretCode: { eq: "x" } }) { data { id } } }');
    expect(filter.status).to.equal(400);
  });

  it('rejects operations deeper than depthLimit (envelopes not counted)', async () => {
    // small pages keep these nested lists under the cost limit
    const page = '(pagination: { pageSize: 1 })';
    const level = (n: number): string =>
      n === 0
        ? 'name'
        : `articles${page} { data { attributes { tags${page} { data { attributes { ${level(n - 1)} } } } } } }`;
    const ok = await gql(service, `{ tags { data { attributes { ${level(3)} } } } }`);
    expect(ok.status).to.equal(200);
    const deep = await gql(service, `{ tags { data { attributes { ${level(4)} } } } }`);
    expect(deep.status).to.equal(400);
    expect(deep.body.errors?.[0]?.message).to.equal("'' exceeds maximum operation depth of 7");
    expect(deep.body.errors?.[0]?.extensions).to.deep.equal({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });

  it('answers GET /graphql?query= and serves the playground to browsers outside production', async () => {
    const get = await request(service.app)
      .get('/graphql')
      .query({ query: '{ tag(id: 1) { data { id } } }' })
      .set('Accept', 'application/json');
    expect(get.status).to.equal(200);
    expect(JSON.parse(get.text)).to.deep.equal({ data: { tag: { data: { id: '1' } } } });
    const page = await request(service.app).get('/graphql').set('Accept', 'text/html');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('GraphQL Playground');
    expect(page.text).not.to.match(/(src|href)="(https?:)?\/\//);
    const script = /src="([^"]+middleware\.js)"/.exec(page.text)?.[1];
    expect(script).to.equal('/graphql/playground-assets/graphql-playground-react/build/static/js/middleware.js');
    const asset = await request(service.app).get(script ?? '');
    expect(asset.status).to.equal(200);
    expect(asset.headers['content-type']).to.match(/javascript/);
  });

  it('answers two aliases of one relation or component list with different arguments apart (one read)', async () => {
    const relations = await gql(
      service,
      '{ articles(pagination: { pageSize: 3 }) { data { id attributes { a: tags(filters: { name: { eq: "GraphQL" } }) { data { id } } b: tags(sort: "name:desc") { data { attributes { name } } } } } } }',
    );
    expect(relations.body.errors).to.equal(undefined);
    const entries = at(relations.body, 'data.articles.data') as { attributes: { a: unknown; b: unknown } }[];
    expect(entries.map((entry) => entry.attributes)).to.deep.equal([
      { a: { data: [] }, b: { data: [{ attributes: { name: 'node.js' } }, { attributes: { name: 'Paris' } }] } },
      {
        a: { data: [{ id: '3' }] },
        b: { data: [{ attributes: { name: 'MongoDB' } }, { attributes: { name: 'GraphQL' } }] },
      },
      { a: { data: [] }, b: { data: [] } },
    ]);
    const lists = await gql(
      service,
      '{ articles(pagination: { pageSize: 4 }) { data { attributes { x: links(filters: { external: { eq: true } }) { id } y: links(filters: { external: { eq: false } }) { id } } } } }',
    );
    expect(
      (at(lists.body, 'data.articles.data') as { attributes: unknown }[]).map((entry) => entry.attributes),
    ).to.deep.equal([
      { x: [{ id: '2' }], y: [{ id: '1' }] },
      { x: [], y: [] },
      { x: [], y: [{ id: '3' }] },
      { x: [{ id: '5' }], y: [{ id: '4' }] },
    ]);
  });

  it('applies filters on repeatable component fields, also nested in a component', async () => {
    const res = await gql(
      service,
      '{ articles(pagination: { pageSize: 3 }) { data { attributes { seo { metaSocial(filters: { network: { eq: "Twitter" } }) { id network } } } } } }',
    );
    expect(
      (at(res.body, 'data.articles.data') as { attributes: unknown }[]).map((entry) => entry.attributes),
    ).to.deep.equal([
      { seo: { metaSocial: [{ id: '1', network: 'Twitter' }] } },
      { seo: null },
      { seo: { metaSocial: [] } },
    ]);
  });

  it("answers a request without a query with Apollo's message and status", async () => {
    const post = (body: string) =>
      request(service.app).post('/graphql').set('Content-Type', 'application/json').send(body);
    for (const body of ['{}', '[]']) {
      const res = await post(body);
      expect(res.status).to.equal(400);
      expect(res.type).to.equal('text/plain');
      expect(res.text).to.equal('POST body missing, invalid Content-Type, or JSON object has no keys.');
    }
    const wrongType = await request(service.app).post('/graphql').set('Content-Type', 'text/plain').send('{ x }');
    expect(wrongType.text).to.equal('POST body missing, invalid Content-Type, or JSON object has no keys.');
    for (const body of ['{"variables":{}}', '{"query":""}', '{"query":null}']) {
      const res = await post(body);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        errors: [
          {
            message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      });
    }
    const notText = await post('{"query":5}');
    expect([notText.status, notText.text]).to.deep.equal([400, 'GraphQL queries must be strings.']);
    const get = await request(service.app).get('/graphql').set('Accept', 'application/json');
    expect([get.status, get.text]).to.deep.equal([400, 'GET query missing.']);
  });

  it('reads variables and extensions sent as JSON text, in a POST body, a batch or a GET (Apollo Server 3)', async () => {
    const query = 'query Q($id: ID!) { tag(id: $id) { data { id } } }';
    const post = (body: object) => request(service.app).post('/graphql').set('Accept', 'application/json').send(body);
    const text = await post({ query, variables: '{"id":3}' });
    expect([text.status, text.body]).to.deep.equal([200, { data: { tag: { data: { id: '3' } } } }]);
    const batch = await post([
      { query, variables: '{"id":1}' },
      { query, variables: { id: 2 } },
    ]);
    expect(batch.body).to.deep.equal([
      { data: { tag: { data: { id: '1' } } } },
      { data: { tag: { data: { id: '2' } } } },
    ]);
    const tagOne = { data: { tag: { data: { id: '1' } } } };
    // a list is object-like to graphql-js: no variables
    const listed = await post({ query: '{ tag(id: 1) { data { id } } }', variables: '[1]', extensions: '' });
    expect([listed.status, listed.body]).to.deep.equal([200, tagOne]);
    // variables that are no object (an empty text) fail graphql-js's execute, alone or in their place in a batch
    const notAnObject = {
      errors: [
        {
          message:
            'Variables must be provided as an Object where each property is a variable value. Perhaps look to see if an unparsed JSON string was provided.',
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
    };
    const empty = await post({ query: '{ tag(id: 1) { data { id } } }', variables: '' });
    expect([empty.status, empty.body]).to.deep.equal([400, notAnObject]);
    const emptyInBatch = await post([
      { query: '{ tag(id: 1) { data { id } } }', variables: '{}' },
      { query: '{ tag(id: 1) { data { id } } }', variables: '' },
    ]);
    expect([emptyInBatch.status, emptyInBatch.body]).to.deep.equal([200, [tagOne, notAnObject]]);
    const emptyGet = await request(service.app)
      .get('/graphql')
      .query({ query: '{ tag(id: 1) { data { id } } }', variables: '' });
    expect([emptyGet.status, JSON.parse(emptyGet.text)]).to.deep.equal([400, notAnObject]);
    const get = await request(service.app)
      .get('/graphql')
      .query({ query, variables: '{"id":4}' })
      .set('Accept', 'application/json');
    expect([get.status, JSON.parse(get.text)]).to.deep.equal([200, { data: { tag: { data: { id: '4' } } } }]);

    const broken = await post({ query, variables: '{"id":' });
    expect([broken.status, broken.type, broken.text]).to.deep.equal([400, 'text/plain', 'Variables are invalid JSON.']);
    const brokenInBatch = await post([
      { query, variables: { id: 1 } },
      { query, variables: '{' },
    ]);
    expect([brokenInBatch.status, brokenInBatch.text]).to.deep.equal([400, 'Variables are invalid JSON.']);
    const brokenGet = await request(service.app).get('/graphql').query({ query, extensions: 'x' });
    expect([brokenGet.status, brokenGet.text]).to.deep.equal([400, 'Extensions are invalid JSON.']);
  });

  it('answers introspection with Strapi names', async () => {
    const res = await gql(service, '{ __type(name: "ArticleEntityResponseCollection") { fields { name } } }');
    expect(at(res.body, 'data.__type.fields')).to.deep.equal([{ name: 'data' }, { name: 'meta' }]);
  });

  it("lists the upload file's fields in Strapi 4.26's order (its added attributes before the timestamps)", async () => {
    const names = async (type: string, list: 'fields' | 'inputFields') =>
      (
        at((await gql(service, `{ __type(name: "${type}") { ${list} { name } } }`)).body, `data.__type.${list}`) as {
          name: string;
        }[]
      ).map((field) => field.name);
    const scalars = ['name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime'];
    const more = ['size', 'url', 'previewUrl', 'provider', 'provider_metadata'];
    expect(await names('UploadFile', 'fields')).to.deep.equal([
      ...scalars,
      ...more,
      'related',
      'createdAt',
      'updatedAt',
    ]);
    expect(await names('UploadFileFiltersInput', 'inputFields')).to.deep.equal([
      'id',
      ...scalars,
      ...more,
      'folder',
      'folderPath',
      'createdAt',
      'updatedAt',
      'and',
      'or',
      'not',
    ]);
    expect(await names('UploadFileInput', 'inputFields')).to.deep.equal([...scalars, ...more, 'folder', 'folderPath']);
  });

  it('in/notIn of an empty list: IN () matches nothing, NOT IN () everything, on id no condition (Strapi 4.26)', async () => {
    const total = async (collection: string, filters: string) =>
      Number(
        at(
          (await gql(service, `{ ${collection}(filters: ${filters}) { meta { pagination { total } } } }`)).body,
          `data.${collection}.meta.pagination.total`,
        ),
      );
    const all = await total('articles', '{}');
    const withCategory = await total('articles', '{ category: { id: { notNull: true } } }');
    expect(withCategory).to.be.below(all);
    // on an attribute, knex's `1 = 0` and `1 = 1`: NULLs and entries with nothing related included
    for (const filters of [
      '{ views: { in: [] } }',
      '{ category: { name: { in: [] } } }',
      '{ links: { label: { in: [] } } }',
      '{ not: { category: { name: { notIn: [] } } } }',
    ])
      expect(await total('articles', filters), filters).to.equal(0);
    for (const filters of [
      '{ not: { views: { in: [] } } }',
      '{ category: { name: { notIn: [] } } }',
      '{ tags: { name: { notIn: [] } } }',
      '{ not: { seo: { metaTitle: { in: [] } } } }',
    ])
      expect(await total('articles', filters), filters).to.equal(all);
    expect(await total('categories', '{ sortOrder: { notIn: [] } }')).to.equal(await total('categories', '{}'));
    // Strapi's sanitizer removes the empty list under `id` (a relation's too), and what it empties with it
    for (const filters of [
      '{ id: { in: [] } }',
      '{ and: [{ id: { in: [] } }] }',
      '{ category: { id: { in: [] } } }',
      '{ not: { category: { id: { in: [] } } } }',
      '{ not: { id: { notIn: [] } } }',
      '{ id: { not: { in: [] } } }',
    ])
      expect(await total('articles', filters), filters).to.equal(all);
    expect(await total('articles', '{ id: { in: [], eq: 1 } }')).to.equal(1);
  });

  it('an empty or, and or a not of nothing is no condition (Strapi 4.26)', async () => {
    const total = async (filters: string) =>
      at(
        (await gql(service, `{ articles(filters: ${filters}) { meta { pagination { total } } } }`)).body,
        'data.articles.meta.pagination.total',
      );
    const all = await total('{}');
    expect(all).to.equal(34);
    for (const filters of ['{ or: [] }', '{ and: [] }', '{ not: { or: [] } }'])
      expect(await total(filters), filters).to.equal(all);
    expect(await total('{ or: [], kind: { eq: "news" } }')).to.equal(await total('{ kind: { eq: "news" } }'));
  });

  it('null given for a relation, a component, and, or, not or an item of them is no condition (Strapi 4.26)', async () => {
    const answer = async (filters: string) =>
      (await gql(service, `{ articles(filters: ${filters}, pagination: { pageSize: 50 }) { data { id } } }`)).body;
    const all = await answer('{}');
    expect((at(all, 'data.articles.data') as unknown[]).length).to.equal(34);
    for (const filters of [
      '{ author: null }',
      '{ tags: null }',
      '{ localizations: null }',
      '{ seo: null }',
      '{ links: null }',
      '{ seo: { metaSocial: null } }',
      '{ and: null }',
      '{ or: null }',
      '{ not: null }',
      '{ and: [null] }',
      '{ or: [null] }',
    ])
      expect(await answer(filters), filters).to.deep.equal(all);
    expect(await answer('{ or: [null, { id: { eq: 2 } }] }')).to.deep.equal({
      data: { articles: { data: [{ id: '2' }] } },
    });
    // inside a relation's own filters too
    const articles = await gql(
      service,
      '{ author(id: 1) { data { attributes { articles(filters: { category: null }) { data { id } } } } } }',
    );
    const unfiltered = await gql(service, '{ author(id: 1) { data { attributes { articles { data { id } } } } } }');
    expect(articles.body).to.deep.equal(unfiltered.body);
  });
});
