import { expect } from 'chai';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { at, gql, registerUser } from './helpers.js';

/**
 * Scalar literals that cannot be parsed are validation errors (400, GRAPHQL_VALIDATION_FAILED,
 * with the literal's location), worded as Strapi 4.26 words them (graphql-scalars for Date,
 * DateTime and Long; Strapi's own Time and I18NLocaleCode); a relation the caller may not read is
 * a FORBIDDEN error on that field only. Answers recorded from the reference Strapi 4.26.2.
 */
describe('GraphQL: scalar literal errors and forbidden relations (Strapi 4.26 answers)', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const validationFailed = (message: string, column: number) => ({
    status: 400,
    body: {
      errors: [{ message, locations: [{ line: 1, column }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
    },
  });

  for (const [query, message, column] of [
    [
      '{ events(filters: { startTime: { gt: "12:00" } }) { data { id } } }',
      'Expected value of type "Time", found "12:00"; Invalid time format, expected HH:mm:ss.SSS',
      38,
    ],
    [
      '{ events(filters: { startTime: { eq: 12 } }) { data { id } } }',
      'Expected value of type "Time", found 12; Time cannot represent non string type',
      38,
    ],
    [
      '{ events(filters: { day: { eq: "2024-3-6" } }) { data { id } } }',
      'Date cannot represent an invalid date-string 2024-3-6.',
      32,
    ],
    [
      '{ events(filters: { day: { eq: "2024-02-30" } }) { data { id } } }',
      'Date cannot represent an invalid date-string 2024-02-30.',
      32,
    ],
    [
      '{ events(filters: { startsAt: { gt: "2024-03-06" } }) { data { id } } }',
      'DateTime cannot represent an invalid date-time-string 2024-03-06.',
      37,
    ],
    [
      '{ events(filters: { budget: { gt: "abc" } }) { data { id } } }',
      'Expected value of type "Long", found "abc"; Cannot convert abc to a BigInt',
      35,
    ],
    [
      '{ articles(locale: 5) { data { id } } }',
      'Expected value of type "I18NLocaleCode", found 5; Locale cannot represent non string type',
      20,
    ],
    [
      '{ articles(locale: "xx") { data { id } } }',
      'Expected value of type "I18NLocaleCode", found "xx"; Unknown locale supplied',
      20,
    ],
    [
      '{ articles(locale: "EN") { data { id } } }',
      'Expected value of type "I18NLocaleCode", found "EN"; Unknown locale supplied',
      20,
    ],
  ] as const) {
    it(query, async () => {
      expect(await gql(service, query)).to.deep.equal(validationFailed(message, column));
    });
  }

  it('a locale literal may name any known locale, configured or not, or all', async () => {
    for (const locale of ['fr', 'de', 'zh-Hans', 'all']) {
      const answer = await gql(
        service,
        `{ articles(locale: "${locale}", pagination: { limit: 100 }) { data { id } } }`,
      );
      expect(at(answer.body, 'data.articles.data'), locale).to.be.an('array');
      expect(answer.body.errors, locale).to.equal(undefined);
    }
  });

  it('a dynamic zone input names its components by __typename, as Strapi reads it', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'dz-input', type: 'full-access' });
    const created = await gql(
      service,
      'mutation { createArticle(data: { title: "dz", blocks: [{ __typename: "ComponentBlocksQuote", text: "q" }, { __typename: "ComponentBlocksCta", label: "L", url: "/u" }] }) { data { attributes { blocks { __typename ... on ComponentBlocksQuote { text } ... on ComponentBlocksCta { label url style } } } } } }',
      undefined,
      accessKey,
    );
    expect(created.body).to.deep.equal({
      data: {
        createArticle: {
          data: {
            attributes: {
              blocks: [
                { __typename: 'ComponentBlocksQuote', text: 'q' },
                { __typename: 'ComponentBlocksCta', label: 'L', url: '/u', style: 'primary' },
              ],
            },
          },
        },
      },
    });
    const refused = await gql(
      service,
      'mutation { createArticle(data: { title: "x", blocks: [{ __component: "blocks.quote" }] }) { data { id } } }',
      undefined,
      accessKey,
    );
    expect(refused).to.deep.equal(
      validationFailed(
        'Expected value of type "ArticleBlocksDynamicZoneInput!", found {__component: "blocks.quote"}; Component not found. expected one of: ComponentBlocksQuote, ComponentBlocksRichText, ComponentBlocksCta',
        55,
      ),
    );
  });

  it('login with another provider than local: no provider is enabled', async () => {
    const res = await gql(
      service,
      'mutation { login(input: { identifier: "alice", password: "x", provider: "github" }) { jwt } }',
    );
    expect(res.body).to.deep.equal({
      data: null,
      errors: [
        {
          message: 'This provider is disabled',
          extensions: {
            code: 'STRAPI_APPLICATION_ERROR',
            error: { name: 'ApplicationError', message: 'This provider is disabled', details: {} },
          },
        },
      ],
    });
  });

  it('valid literals still filter: a time, a date, a date-time and a long', async () => {
    const ids = async (query: string) =>
      ((await gql(service, query)).body.data?.events as { data: { id: string }[] }).data.map((e) => e.id);
    expect(await ids('{ events(filters: { startTime: { eq: "10:00:00" } }, sort: "id") { data { id } } }')).to.be.an(
      'array',
    );
    expect(await ids('{ events(filters: { day: { eq: "2024-03-06" } }) { data { id } } }')).to.have.length.greaterThan(
      0,
    );
    expect(
      await ids(
        '{ events(filters: { startsAt: { gt: "2000-01-01T00:00:00Z" }, budget: { gte: "1" } }) { data { id } } }',
      ),
    ).to.have.length.greaterThan(0);
  });

  it('a nested relation’s bad sort or filters fails that field only, once per parent', async () => {
    const res = await gql(
      service,
      '{ authors(pagination: { limit: 2 }) { data { id attributes { name articles(sort: "nope") { data { id } } profile { data { id } } } } } }',
    );
    expect(res.body.data).to.deep.equal({
      authors: {
        data: [
          { id: '1', attributes: { name: 'Alice Martin', articles: null, profile: { data: { id: '1' } } } },
          { id: '2', attributes: { name: 'bob dupont', articles: null, profile: { data: { id: '2' } } } },
        ],
      },
    });
    const invalid = {
      message: 'Invalid parameter nope',
      extensions: {
        code: 'BAD_USER_INPUT',
        error: { name: 'ValidationError', message: 'Invalid parameter nope', details: {} },
      },
    };
    expect(res.body.errors).to.deep.equal([invalid, invalid]);
  });

  it('a relation to a type the caller may not read is FORBIDDEN on that field, the rest answered', async () => {
    const jwt = await registerUser(service, 'scalarsuser');
    const res = await gql(
      service,
      '{ usersPermissionsUsers { data { id attributes { username role { data { id } } } } } }',
      undefined,
      jwt,
    );
    expect(res.body.data).to.deep.equal({
      usersPermissionsUsers: { data: [{ id: '1', attributes: { username: 'scalarsuser', role: null } }] },
    });
    expect(res.body.errors).to.deep.equal([
      {
        message: 'Forbidden access',
        extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } },
      },
    ]);
  });
});
