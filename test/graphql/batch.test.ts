// Batched GraphQL requests (a JSON array of operations) and bodies that are not JSON objects,
// answered as Strapi 4.26 (Apollo Server 3, koa-body) answers them. Expected answers recorded
// from the reference Strapi 4.26.2 on the fixture.
import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { registerUser } from './helpers.js';

const EMPTY_QUERY = {
  errors: [
    {
      message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    },
  ],
};

describe('GraphQL: batched operations and bodies that are no JSON object', () => {
  let service: TestService;
  let jwt: string;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    jwt = await registerUser(service, 'batcher');
  });
  after(() => service.close());

  const post = (body: string, type = 'application/json') =>
    request(service.app).post('/graphql').set('Content-Type', type).send(body);
  const NOTES = '{ notes(sort: "id") { data { id } } }';
  const notes = { data: { notes: { data: [{ id: '1' }, { id: '2' }, { id: '3' }] } } };

  it('answers an array of operations with an array of answers, each on its own', async () => {
    const res = await post(
      JSON.stringify([
        { query: NOTES },
        { query: '{ tags(sort: "id", pagination: { limit: 2 }) { data { id } } }' },
        { nope: 1 },
        5,
        { query: '{ nope }' },
        { query: 'query($id: ID!) { note(id: $id) { data { id } } }', variables: { id: 2 } },
        { query: 'query($id: ID!) { note(id: $id) { data { id } } }' },
        { query: NOTES, operationName: 'x' },
      ]),
    );
    expect(res.status).to.equal(200);
    expect(res.type).to.equal('application/json');
    const answers = res.body as { data?: unknown; errors?: { message: string; extensions?: unknown }[] }[];
    expect(answers).to.have.length(8);
    expect(answers.slice(0, 4)).to.deep.equal([
      notes,
      { data: { tags: { data: [{ id: '1' }, { id: '2' }] } } },
      EMPTY_QUERY,
      EMPTY_QUERY,
    ]);
    expect(answers[4]).to.deep.equal({
      errors: [
        {
          message: 'Cannot query field "nope" on type "Query". Did you mean "note" or "notes"?',
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    });
    expect(answers[5]).to.deep.equal({ data: { note: { data: { id: '2' } } } });
    expect(answers[6]?.errors?.[0]?.message).to.equal('Variable "$id" of required type "ID!" was not provided.');
    expect(answers[7]?.errors?.[0]?.message).to.equal('Unknown operation named "x".');
  });

  it('runs mutations of a batch in order; a query that is no string refuses the whole batch', async () => {
    const res = await post(
      JSON.stringify([
        { query: '{ tags(filters: { slug: { eq: "batched" } }) { data { id } } }' },
        { query: 'mutation { createTag(data: { name: "batched", slug: "batched" }) { data { id } } }' },
        { query: '{ tags(filters: { slug: { eq: "batched" } }) { data { attributes { name } } } }' },
      ]),
    ).set('Authorization', `Bearer ${jwt}`);
    expect(res.body[0]).to.deep.equal({ data: { tags: { data: [] } } });
    expect(res.status).to.equal(200);
    expect(res.body[2]).to.deep.equal({ data: { tags: { data: [{ attributes: { name: 'batched' } }] } } });
    const notText = await post(JSON.stringify([{ query: NOTES }, { query: 5 }]));
    expect([notText.status, notText.type, notText.text]).to.deep.equal([
      400,
      'text/plain',
      'GraphQL queries must be strings.',
    ]);
    // Strapi answers a 500 (Apollo reads `null.query`): a 400 here, nothing run
    const nullItem = await post(JSON.stringify([{ query: NOTES }, null]));
    expect(nullItem.status).to.equal(400);
    expect(nullItem.body.data).to.equal(null);
    expect(nullItem.body.error).to.include({ status: 400, name: 'ValidationError' });
  });

  it('a body that is no JSON object or array: the body parser’s 400, in Strapi’s error shape', async () => {
    const broken = await post('{bad json');
    expect([broken.status, broken.body]).to.deep.equal([
      400,
      {
        data: null,
        error: { status: 400, name: 'SyntaxError', message: "Expected property name or '}' in JSON at position 1" },
      },
    ]);
    for (const body of ['"just a string"', '5', 'null']) {
      const res = await post(body);
      expect([res.status, res.body], body).to.deep.equal([
        400,
        {
          data: null,
          error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
        },
      ]);
    }
    for (const [body, type] of [
      ['', 'application/json'],
      ['{ notes { data { id } } }', 'application/graphql'],
    ]) {
      const res = await post(body ?? '', type);
      expect([res.status, res.type, res.text]).to.deep.equal([
        400,
        'text/plain',
        'POST body missing, invalid Content-Type, or JSON object has no keys.',
      ]);
    }
    const form = await post(`query=${encodeURIComponent(NOTES)}`, 'application/x-www-form-urlencoded');
    expect([form.status, form.body]).to.deep.equal([200, notes]);
  });

  it("an operation that cannot be chosen: Apollo's message, a 400 alone", async () => {
    const unknown = await post(JSON.stringify({ query: NOTES, operationName: 'x' }));
    const several = await post(JSON.stringify({ query: `query a ${NOTES} query b ${NOTES}` }));
    expect([unknown.status, unknown.body, several.status, several.body]).to.deep.equal([
      400,
      { errors: [{ message: 'Unknown operation named "x".', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] },
      400,
      {
        errors: [
          {
            message: 'Must provide operation name if query contains multiple operations.',
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      },
    ]);
  });
});
