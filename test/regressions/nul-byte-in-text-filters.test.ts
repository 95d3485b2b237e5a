// Regression: a NUL byte in a `$contains`/`$startsWith`/`$endsWith`/`$eqi`... value answered 500
// (REST and GraphQL): the pattern is sent as a BSON regular expression, a C string that cannot
// hold a NUL. The pattern now spells it `\x00`, so the value matches literally, as every other
// character does: 200 with no match unless an entry holds that NUL.
import { expect } from 'chai';
import request from 'supertest';
import { gql } from '../graphql/helpers.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('regression: NUL byte in a text filter value', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    const notes = service.context.connection.db?.collection<{ _id: number } & Record<string, unknown>>('notes');
    await notes?.insertOne({
      _id: 900,
      title: 'before\0after',
      pinned: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  });
  after(() => service.close());

  const operators = [
    '$contains',
    '$notContains',
    '$containsi',
    '$startsWith',
    '$startsWithi',
    '$endsWith',
    '$endsWithi',
    '$eq',
    '$eqi',
    '$ne',
  ];

  it('answers 200 over REST for every text operator, matching the NUL literally', async () => {
    for (const operator of operators) {
      const res = await request(service.app).get(`/api/tags?filters[name][${operator}]=a%00b&fields[0]=name`);
      expect(res.status, operator).to.equal(200);
      const expected = operator.startsWith('$not') || operator === '$ne' ? 12 : 0;
      expect(res.body.data, operator).to.have.length(expected);
    }
    const found = await request(service.app).get('/api/notes?filters[title][$contains]=e%00a&fields[0]=title');
    expect(found.body.data).to.deep.equal([{ id: 900, attributes: { title: 'before\0after' } }]);
  });

  it('answers data over GraphQL, matching the NUL literally', async () => {
    for (const operator of ['contains', 'containsi', 'startsWith', 'endsWith', 'eqi', 'notContains']) {
      const res = await gql(
        service,
        `query($v: String) { tags(filters: { name: { ${operator}: $v } }) { data { id } } }`,
        {
          v: 'a\0',
        },
      );
      expect(res.status, operator).to.equal(200);
      expect(res.body.errors, operator).to.equal(undefined);
    }
    const found = await gql(service, '{ notes(filters: { title: { endsWith: "\\u0000after" } }) { data { id } } }');
    expect(found.body).to.deep.equal({ data: { notes: { data: [{ id: '900' }] } } });
  });
});
